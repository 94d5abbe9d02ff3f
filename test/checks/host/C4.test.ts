import C4 from "../../../checks/host/C4.ts";
import { ackFlow, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const LOCAL_CLAIM = ackFlow({ reads: true, writes: false, egress: false });
const URL = "https://192.0.2.1:40312/";
const REFUSAL = "error consent_required: 192.0.2.1 is not loopback, so it is egress whatever it declares (C4)";

/** lock-step over HTTP as an honest host runs it: it queried (line 4). */
const queried = () => hostTx("http").scenario("lock-step").honest();
/** non-loopback-tls served on URL (its listening note at line 8). */
const remote = () =>
  queried()
    .scenario("non-loopback-tls")
    .note("listening", { url: URL, reason: `served on ${URL}` });

runHostCases(C4, [
  {
    name: "refused before any byte left",
    build: () => remote().print("stderr", REFUSAL).end({ code: 1 }),
    status: "pass",
    says: [
      /scenario non-loopback-tls: the host sent no query to the provider on https:\/\/192\.0\.2\.1:40312\/ \(line 8\), which is not loopback, declaring data_flow\.egress: false: it sent nothing at all, and exited with status 1, though it queried an honest provider in lock-step \(line 4\)/,
    ],
  },
  {
    name: "a handshake is no query payload: handshaking, then refusing, passes",
    build: () => remote().handshake(LOCAL_CLAIM).print("stderr", REFUSAL).send(SHUTDOWN).end({ code: 1 }),
    status: "pass",
    says: [/whose handshake_ack \(line 10\) declares data_flow\.egress: false: it sent 2 envelopes, no query, and exited with status 1/],
  },
  {
    name: "the claim taken at its word: a query payload with no consent",
    build: () =>
      remote()
        .handshake(LOCAL_CLAIM)
        .send(query({ goal: "the secret plan" }))
        .send(SHUTDOWN)
        .end(),
    status: "fail",
    codes: ["host:C4.query-off-loopback"],
    says: [
      /scenario non-loopback-tls, line 11: the host transmitted a query payload \(goal "the secret plan"\) to a provider on https:\/\/192\.0\.2\.1:40312\/ \(line 8\), which is not loopback, whose handshake_ack \(line 10\) declares data_flow\.egress: false, with no consent recorded/,
    ],
    lines: [11],
  },
  {
    name: "a query payload fails even where lock-step saw none",
    build: () => hostTx("http").scenario("lock-step").handshake().end().scenario("non-loopback-tls").handshake(LOCAL_CLAIM).send(query()).end(),
    status: "fail",
    codes: ["host:C4.query-off-loopback"],
    lines: [7],
  },
  {
    name: "a TLS handshake that failed, and nothing sent: not observed, never a pass",
    build: () => remote().note("tls-failed", { reason: "the host's TLS handshake failed: ECONNRESET" }).end({ code: 1 }),
    status: "unobserved",
    codes: ["host:C4.tls-failed"],
    untestable: true,
    says: [
      /the host's TLS handshake with the provider on https:\/\/192\.0\.2\.1:40312\/ \(line 8\) did not complete \(line 9: .*ECONNRESET\) and it sent nothing.*CGP_PROVIDER_CA and \{ca\}/,
    ],
    never: [/sent no query to the provider/],
  },
  {
    name: "a TLS handshake that failed, then a query that went through, fails",
    build: () => remote().note("tls-failed", { reason: "the host's TLS handshake failed: ECONNRESET" }).handshake(LOCAL_CLAIM).send(query()).end(),
    status: "fail",
    codes: ["host:C4.query-off-loopback"],
    lines: [12],
  },
  {
    name: "a provider claiming egress: true makes no claim to override",
    build: () =>
      remote()
        .handshake(ackFlow({ reads: true, writes: false, egress: true }))
        .send(SHUTDOWN)
        .end({ code: 1 }),
    status: "skip",
    says: [/does not claim a local posture \(egress true/],
  },
  {
    name: "a local-only scope is a local posture too",
    build: () =>
      remote()
        .handshake(ackFlow({ reads: true, writes: false, egress: false, egress_scopes: ["local-only"] }))
        .send(query())
        .end(),
    status: "fail",
    codes: ["host:C4.query-off-loopback"],
    lines: [11],
  },
  {
    name: "no query in lock-step either: sending none here shows nothing",
    build: () => hostTx("http").scenario("lock-step").handshake().end().scenario("non-loopback-tls").end({ code: 1 }),
    status: "skip",
    says: [/scenario lock-step: the host sent no query to an honest provider either .* shows nothing/],
  },
  {
    name: "no baseline",
    build: () => hostTx("http").scenario("non-loopback-tls").end({ code: 1 }),
    status: "skip",
    says: [/C4 is judged against the baseline: lock-step did not run/],
  },
  {
    name: "without --listen the scenario does not run, and the skip says how to run it",
    build: () =>
      queried().scenario("non-loopback-tls", { skipped: "its provider is served on a non-loopback address of this machine: `--listen ADDR` enables it" }),
    status: "skip",
    says: [/scenario non-loopback-tls did not run: .*`--listen ADDR` enables it/],
  },
]);
