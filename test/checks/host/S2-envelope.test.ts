import S2envelope from "../../../checks/host/S2-envelope.ts";
import { handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

runHostCases(S2envelope, [
  {
    name: "an honest host",
    build: () => hostTx().scenario("lock-step").honest(),
    status: "pass",
    says: [
      /scenario lock-step: every envelope the host sent validates against the envelope schema \(interop mode\) \(3 envelopes, handshake, query, shutdown: lines 2, 4, 6\)/,
    ],
  },
  {
    name: "a query without max_tokens",
    build: () => {
      const q = query();
      delete (q.query as Record<string, unknown>).max_tokens;
      return hostTx().scenario("lock-step").handshake().send(q).end();
    },
    status: "fail",
    codes: ["host:S2-envelope.invalid-envelope"],
    says: [/scenario lock-step, line 4: the host's query envelope: \/query\/max_tokens required member "max_tokens" is missing/],
    lines: [4],
  },
  {
    name: "a budget written as a string",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({ max_tokens: "2000" }))
        .end(),
    status: "fail",
    codes: ["host:S2-envelope.invalid-envelope"],
    says: [/line 4: the host's query envelope: \/query\/max_tokens .*\| "2000"/],
    lines: [4],
  },
  {
    name: "a verify identity without a frame_id",
    build: () =>
      hostTx()
        .scenario("verify-declared")
        .handshake()
        .send({ type: "verify", request: { frames: [{ provider_id: "p" }] } })
        .end(),
    status: "fail",
    codes: ["host:S2-envelope.invalid-envelope"],
    says: [/line 4: the host's verify envelope: \/request\/frames\/0\/frame_id required member "frame_id" is missing/],
    lines: [4],
  },
  {
    name: "unknown members are ignored (interop mode)",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .send(handshake(undefined, { client: "x" }))
        .ack()
        .send(query({ x_hint: 1 }, { trace: "t" }))
        .end(),
    status: "pass",
  },
  {
    name: "a handshake version outside the grammar is host:S3-version's",
    build: () => hostTx().scenario("lock-step").handshake(undefined, "1.0").send(SHUTDOWN).end(),
    status: "pass",
    never: [/protocol_version/],
  },
  {
    name: "a representation outside the vocabulary is host:P5's",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({ representation_preferences: ["hologram"] }))
        .end(),
    status: "pass",
  },
  {
    name: "an envelope type this revision does not define is not validated",
    build: () => hostTx().scenario("lock-step").handshake().send({ type: "ping", nonce: 3 }).send(SHUTDOWN).end(),
    status: "pass",
    says: [/\(2 envelopes, handshake, shutdown: lines 2, 5\)/],
  },
  {
    name: "nothing but text: nothing to validate",
    build: () => hostTx().scenario("lock-step").send("hello").end({ code: 1 }),
    status: "skip",
    says: [/the host sent no envelope of a type this revision defines/],
  },
]);
