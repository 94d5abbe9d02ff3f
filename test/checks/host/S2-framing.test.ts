import S2framing from "../../../checks/host/S2-framing.ts";
import { ackWith, handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

runHostCases(S2framing, [
  {
    name: "an honest host in two scenarios",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .honest()
        .scenario("correlation")
        .honest(ackWith({ correlation: true })),
    status: "pass",
    says: [
      /scenario lock-step: every line the host wrote is one JSON envelope, and no query or verify precedes the handshake exchange \(3 lines: lines 2, 4, 6\)/,
      /scenario correlation:/,
    ],
  },
  {
    name: "a pretty-printed envelope: the MUST",
    build: () => hostTx().scenario("lock-step").handshake().send("{").send('  "type": "shutdown"').send("}").end(),
    status: "fail",
    codes: ["host:S2-framing.fragment"],
    says: [
      /scenario lock-step, lines 4, 5, 6: the host wrote a fragment of a pretty-printed \(multi-line\) envelope: "\{"/,
      /an envelope MUST NOT contain a literal newline/,
    ],
    lines: [4, 5, 6],
  },
  {
    name: "a log line on the provider's input: a warning",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .send("host starting, v1.2")
        .handshake()
        .send(query())
        .answer({ type: "frames", result: { frames: [] } })
        .end(),
    status: "warn",
    codes: ["host:S2-framing.not-json"],
    strict: "warn",
    says: [/scenario lock-step, line 2: the host wrote text that is not a JSON object to the provider's input/, /"host starting, v1.2"/],
    lines: [2],
  },
  {
    name: "a JSON object with no type: a warning",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send({ query: { goal: "x" } })
        .end(),
    status: "warn",
    codes: ["host:S2-framing.untyped"],
    strict: "warn",
    says: [/line 4: the host wrote a JSON object with no string type member/],
    lines: [4],
  },
  {
    name: "a line over the run's cap: informational",
    build: () => hostTx().scenario("lock-step").handshake().send('{"type":"query","query":{"goal":"', { overLong: true, bytes: 1048577 }).end(),
    status: "info",
    codes: ["host:S2-framing.over-long"],
    says: [/line 4: a line over the run's line cap \(1048577 bytes when it crossed it\) was not kept/],
    lines: [4],
  },
  {
    name: "a query before any handshake",
    build: () => hostTx().scenario("lock-step").send(query()).handshake().send(SHUTDOWN).end(),
    status: "warn",
    codes: ["host:S2-framing.before-handshake"],
    strict: "warn",
    says: [/scenario lock-step, line 2: the host sent query before any handshake/],
    lines: [2],
  },
  {
    name: "a query pipelined ahead of the handshake_ack",
    build: () => hostTx().scenario("lock-step").send(handshake()).send(query()).ack().end(),
    status: "warn",
    codes: ["host:S2-framing.before-handshake"],
    strict: "warn",
    says: [/line 3: the host sent query before the handshake_ack \(line 4\) came back/],
    lines: [3],
  },
  {
    name: "a query though no handshake_ack ever came back",
    build: () =>
      hostTx().scenario("wrong-family").send(handshake()).answer({ type: "error", code: "incompatible_version", message: "no" }).send(query()).end({ code: 1 }),
    status: "warn",
    codes: ["host:S2-framing.before-handshake"],
    strict: "warn",
    says: [/line 4: the host sent query though no handshake_ack ever came back/],
    lines: [4],
  },
  {
    name: "over HTTP a lone brace is a body that is not JSON, not a fragment",
    build: () => hostTx("http").scenario("lock-step").handshake().send("{").end(),
    status: "warn",
    codes: ["host:S2-framing.not-json"],
    strict: "warn",
    says: [/line 4: a request body is not a JSON object: "\{"/],
    never: [/fragment/],
    lines: [4],
  },
  {
    name: "over HTTP a body spread over lines is still one envelope",
    build: () =>
      hostTx("http")
        .scenario("lock-step")
        .handshake()
        .send(JSON.stringify(query(), null, 2))
        .answer({ type: "frames", result: { frames: [] } })
        .end(),
    status: "pass",
    says: [/every request body the host wrote is one JSON envelope, .*\(2 request bodies: lines 2, 4\)/],
  },
  {
    name: "a scenario that did not run is not read",
    build: () => hostTx().scenario("bearer-token", { skipped: "it needs the HTTP binding" }).scenario("lock-step").honest(),
    status: "pass",
    never: [/bearer-token/],
  },
  {
    name: "a scenario in which the host wrote nothing: untestable",
    build: () => hostTx().scenario("lock-step").honest().scenario("egress").end({ code: 2 }),
    status: "unobserved",
    untestable: true,
    says: [/scenario egress: the host sent the provider nothing/],
  },
  {
    name: "a host that said why on stderr before it gave up: its last line is in the finding",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .honest()
        .scenario("egress")
        .print("stderr", "starting")
        .print("stderr", "error: no answer from the provider within 10000 ms")
        .print("stderr", "  ")
        .end({ code: 1 }),
    status: "unobserved",
    untestable: true,
    says: [
      /the host sent the provider nothing \(it exited with status 1; its last line on stderr \(line \d+\): "error: no answer from the provider within 10000 ms"\)/,
    ],
  },
  {
    name: "a provider off loopback sent nothing: an answer there, and no framing to claim a pass for",
    build: () => hostTx("http").scenario("lock-step").honest().scenario("non-loopback-tls").end({ code: 1 }),
    status: "pass",
    never: [/non-loopback-tls/],
  },
]);
