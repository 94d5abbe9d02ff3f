import C7 from "../../../checks/host/C7.ts";
import { ackFlow, handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const EGRESS = ackFlow({ reads: true, writes: false, egress: true });
const URL = "http://192.0.2.1:40311/";
const REFUSAL = "error insecure_transport: http://192.0.2.1:40311/ is plain http:// to 192.0.2.1, which is not loopback";

/** lock-step over HTTP as an honest host runs it: it queried (line 4). */
const queried = () => hostTx("http").scenario("lock-step").honest();
/** non-loopback-plaintext served on URL (its listening note at line 8). */
const plaintext = () =>
  queried()
    .scenario("non-loopback-plaintext")
    .note("listening", { url: URL, reason: `served on ${URL}` });

runHostCases(C7, [
  {
    name: "refused before any byte left, naming the transport",
    build: () => plaintext().print("stderr", REFUSAL).end({ code: 1 }),
    status: "pass",
    says: [
      /scenario non-loopback-plaintext: the host sent no query payload over plain http:\/\/ to the provider on http:\/\/192\.0\.2\.1:40311\/ \(line 8\): it sent nothing at all, and exited with status 1, though it queried an honest provider in lock-step \(line 4\)/,
      /the host's stderr gives the transport as its reason at line 9/,
    ],
  },
  {
    name: "refused silently: a consent gate cannot be told from C7's refusal",
    build: () => plaintext().end({ code: 1 }),
    status: "warn",
    codes: ["host:C7.no-transport-reason"],
    strict: "warn",
    says: [/nothing the host printed \(0 lines\) gives the transport .* which the run cannot tell from C7's refusal/],
    lines: [9],
  },
  {
    name: "a query payload over plain http://",
    build: () =>
      plaintext()
        .handshake(EGRESS)
        .send(query({ goal: "the secret plan" }))
        .send(SHUTDOWN)
        .end(),
    status: "fail",
    codes: ["host:C7.plaintext-query"],
    says: [
      /scenario non-loopback-plaintext, line 11: the host transmitted a query payload \(goal "the secret plan"\) over plain http:\/\/ to a provider on http:\/\/192\.0\.2\.1:40311\/ \(line 8\), which is not loopback, the run's bearer token with it/,
    ],
    never: [/the host sent 2 requests/],
    lines: [11],
  },
  {
    name: "a query payload fails even where lock-step saw none",
    build: () =>
      hostTx("http")
        .scenario("lock-step")
        .handshake()
        .send(SHUTDOWN)
        .end()
        .scenario("non-loopback-plaintext")
        .send(handshake(), { auth: "none" })
        .ack(EGRESS)
        .send(query(), { auth: "none" })
        .end(),
    status: "fail",
    codes: ["host:C7.plaintext-query"],
    says: [/line 8: the host transmitted a query payload/],
    never: [/bearer token/],
    lines: [8],
  },
  {
    name: "a handshake in plaintext, then a refusal: no payload, but no TLS either, a failure of its own",
    build: () => plaintext().handshake(EGRESS).print("stderr", REFUSAL).send(SHUTDOWN).end({ code: 1 }),
    status: "fail",
    codes: ["host:C7.plaintext-requests"],
    says: [
      /lines 9, 12: the host sent 2 requests \(handshake, shutdown\) over plain http:\/\/ to a provider on http:\/\/192\.0\.2\.1:40311\/ \(line 8\), which is not loopback, the run's bearer token with them: no query payload, but a host's HTTP transport must use TLS for every non-loopback provider/,
      /it sent 2 envelopes, no query, and exited with status 1/,
    ],
    never: [/transmitted a query payload/],
    lines: [9, 12],
  },
  {
    name: "a handshake alone in plaintext, no bearer token, the host then silent: a failure",
    build: () =>
      queried()
        .scenario("non-loopback-plaintext")
        .note("listening", { url: URL, reason: `served on ${URL}` })
        .send(handshake(), { auth: "none" })
        .ack(EGRESS)
        .end({ code: 1 }),
    status: "fail",
    codes: ["host:C7.plaintext-requests"],
    says: [
      /line 9: the host sent 1 request \(handshake\) over plain http:\/\/ to a provider on http:\/\/192\.0\.2\.1:40311\/ \(line 8\), which is not loopback: no query payload/,
    ],
    never: [/bearer token/],
  },
  {
    name: "no query in lock-step either: sending none here shows nothing",
    build: () => hostTx("http").scenario("lock-step").handshake().end().scenario("non-loopback-plaintext").end({ code: 1 }),
    status: "skip",
    says: [
      /scenario lock-step: the host sent no query to an honest provider either .* so its sending none to a non-loopback provider over plain http:\/\/ shows nothing/,
    ],
  },
  {
    name: "no baseline",
    build: () => hostTx("http").scenario("non-loopback-plaintext").end({ code: 1 }),
    status: "skip",
    says: [/C7 is judged against the baseline: lock-step did not run/],
  },
  {
    name: "without --listen the scenario does not run, and the skip says how to run it",
    build: () =>
      queried().scenario("non-loopback-plaintext", { skipped: "its provider is served on a non-loopback address of this machine: `--listen ADDR` enables it" }),
    status: "skip",
    says: [/scenario non-loopback-plaintext did not run: .*`--listen ADDR` enables it/],
  },
]);
