import S2E from "../../checks/S2-envelope.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import { HANDSHAKE, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, emptySqueeze, frame, frames, query, tx } from "../helpers/transcript.ts";

/**
 * Probe handshake (2–3), budget-squeeze (4–7), then sample-query: its
 * handshake 8–9, its query 10 and `env` as the answer at line 11.
 */
const answered = (env: object) => () =>
  emptySqueeze(tx().probe(HANDSHAKE.name).handshake()).probe(SAMPLE_QUERY.name).handshake().send(SAMPLE_QUERY.steps.sample, query("s1")).recv(env);

runCases(S2E, [
  {
    name: "every envelope valid",
    build: answered(frames("s1", [frame()])),
    status: "pass",
    codes: ["S2-envelope.validated"],
    says: [/^5 envelopes received were validated against the envelope schema \(interop mode\); violations are reported under the anchor that owns the field/m],
  },
  {
    name: "unknown members at every level are ignored (U1)",
    build: answered({
      type: "frames",
      id: "s1",
      "acme:trace": { span: "7f3a" },
      result: { frames: [frame({ "acme:rank": 3 })], truncated: false, "acme:cost": 1 },
    }),
    status: "pass",
  },
  { name: "a violation another anchor owns is not counted here", build: answered(frames("s1", [frame({ score: 2 })])), status: "pass" },
  {
    name: "result.truncated as a string",
    build: answered({ type: "frames", id: "s1", result: { frames: [], truncated: "no" } }),
    status: "fail",
    codes: ["S2-envelope.schema"],
    says: [
      /frames envelope at line 11 \(probe sample-query\): \/result\/truncated must be boolean \[schema #\/\$defs\/ContextQueryResult\/properties\/truncated\/type\] \|  \| "no"/,
    ],
  },
  {
    name: "result.truncated missing",
    build: answered({ type: "frames", id: "s1", result: { frames: [] } }),
    status: "fail",
    says: [/frames envelope at line 11 \(probe sample-query\): \/result\/truncated required member "truncated" is missing/],
  },
  {
    name: "a frames envelope with no result",
    build: answered({ type: "frames", id: "s1" }),
    status: "fail",
    says: [/frames envelope at line 11 .*: \/result required member "result" is missing/],
  },
  {
    name: "an error with no message",
    build: answered({ type: "error", id: "s1", code: "unavailable" }),
    status: "fail",
    says: [/error envelope at line 11 \(probe sample-query\): \/message required member "message" is missing/],
  },
  {
    name: "an empty correlation id",
    build: answered({ type: "frames", id: "", result: { frames: [], truncated: false } }),
    status: "fail",
    says: [/frames envelope at line 11 \(probe sample-query\): \/id must not be empty/],
  },
  {
    name: "a handshake_ack with no capabilities",
    build: () => tx().probe(HANDSHAKE.name).handshake({ type: "handshake_ack", protocol_version: HOST_VERSION, provider: ACK.provider }),
    status: "fail",
    says: [/handshake_ack envelope at line 3 \(probe handshake\): \/capabilities required member "capabilities" is missing/],
  },
]);
