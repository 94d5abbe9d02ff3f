import H1 from "../../checks/H1.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import { HANDSHAKE, HANDSHAKE_STEP } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { acked } from "../helpers/handshake.ts";
import { tx } from "../helpers/transcript.ts";

const hs = { type: "handshake", protocol_version: HOST_VERSION };

runCases(H1, [
  { name: "same family", build: acked({}), status: "pass", codes: ["H1.same-family"] },
  { name: "a 1.x minor", build: acked({ protocol_version: "contextgraph/1.7" }), status: "pass" },
  { name: "a -draft of the family", build: acked({ protocol_version: "contextgraph/1.0-draft" }), status: "pass" },
  {
    name: "another family",
    build: acked({ protocol_version: "contextgraph/2.0" }),
    status: "fail",
    codes: ["H1.wrong-family"],
    says: [/contextgraph\/2\.0 is in family contextgraph\/2, but the host spoke contextgraph\/1\.0/],
  },
  { name: "not a version string", build: acked({ protocol_version: "1.0" }), status: "fail", codes: ["H1.bad-version"], says: [/grammar/] },
  // The version rule has no patch number: contextgraph/1.0.3 is no version of the protocol (one finding, the schema's pattern folded in).
  { name: "a patch number", build: acked({ protocol_version: "contextgraph/1.0.3" }), status: "fail", codes: ["H1.bad-version"], says: [/grammar/] },
  {
    name: "no reply in time",
    build: () => tx().probe(HANDSHAKE.name).send(HANDSHAKE_STEP, hs).note("timeout", { waitedMs: 900 }),
    status: "fail",
    codes: ["H1.no-ack"],
    says: [/nothing within 900 ms/],
  },
  {
    name: "the wrong envelope",
    build: () =>
      tx()
        .probe(HANDSHAKE.name)
        .send(HANDSHAKE_STEP, hs)
        .recv({ type: "frames", result: { frames: [] } }),
    status: "fail",
    codes: ["H1.no-ack"],
    says: [/type "frames"/],
  },
  {
    name: "the provider would not start",
    build: () => tx().probe(HANDSHAKE.name).note("spawn-error", { reason: "ENOENT" }),
    status: "unobserved",
    codes: ["H1.not-observed"],
    untestable: true,
    says: [/could not be started: ENOENT/],
  },
]);
