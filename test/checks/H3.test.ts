import H3 from "../../checks/H3.ts";
import { FOREIGN_VERSION, PREFIX_FOREIGN_VERSION } from "../../src/math/version.ts";
import { FOREIGN_PREFIX_PROBE, FOREIGN_VERSION_PROBE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const foreign = { type: "handshake", protocol_version: FOREIGN_VERSION };
const REFUSED = { type: "error", code: "incompatible_version", message: "no" };
/** The first foreign handshake answered with `reply` (or not at all), the prefix family's refused by name. */
const answered = (reply: object | undefined, extra?: (b: TranscriptBuilder) => void) => () => {
  const b = tx().probe(FOREIGN_VERSION_PROBE.name).send(FOREIGN_VERSION_PROBE.steps.foreign, foreign);
  if (reply) b.recv(reply);
  extra?.(b);
  return b
    .probe(FOREIGN_PREFIX_PROBE.name)
    .send(FOREIGN_PREFIX_PROBE.steps.foreign, { type: "handshake", protocol_version: PREFIX_FOREIGN_VERSION })
    .recv(REFUSED);
};

/** The first foreign handshake refused, and the prefix family's answered with `reply`. */
const prefixed = (reply: object) => () =>
  tx()
    .probe(FOREIGN_VERSION_PROBE.name)
    .send(FOREIGN_VERSION_PROBE.steps.foreign, foreign)
    .recv(REFUSED)
    .probe(FOREIGN_PREFIX_PROBE.name)
    .send(FOREIGN_PREFIX_PROBE.steps.foreign, { type: "handshake", protocol_version: PREFIX_FOREIGN_VERSION })
    .recv(reply);

runCases(H3, [
  { name: "contextgraph/10.0 refused by name too", build: prefixed(REFUSED), status: "pass", codes: ["H3.refused"] },
  {
    name: "contextgraph/10.0 taken for family 1 (a string prefix test)",
    build: prefixed({ ...ACK }),
    status: "fail",
    codes: ["H3.acknowledged"],
    says: [/handshake with "contextgraph\/10\.0" was acknowledged.*contextgraph\/10 is not contextgraph\/1/],
  },
  { name: "named error", build: answered({ type: "error", code: "incompatible_version", message: "no" }), status: "pass", codes: ["H3.refused"] },
  {
    name: "left to hang",
    build: answered(undefined, (b) => b.note("timeout", { waitedMs: 700 })),
    status: "fail",
    codes: ["H3.no-reply"],
    says: [/no reply within 700 ms: the mismatch was left to hang/],
  },
  {
    name: "exits without a word",
    build: answered(undefined, (b) => b.note("eof").note("exit", { exitCode: 1, signal: null })),
    status: "fail",
    codes: ["H3.no-reply"],
    says: [/exited \(code 1/],
  },
  {
    name: "acked in the host's family",
    build: answered({ ...ACK }),
    status: "fail",
    codes: ["H3.acknowledged"],
    says: [/acknowledged instead of refused: it answers in "contextgraph\/1\.0", not in the family contextgraph\/99 the handshake named/],
  },
  {
    name: "acked claiming the foreign family",
    build: answered({ ...ACK, protocol_version: "contextgraph/99.0" }),
    status: "fail",
    codes: ["H3.acknowledged"],
    says: [/a contextgraph\/1\.0 provider cannot speak/],
  },
  {
    name: "an error with another code",
    build: answered({ type: "error", code: "bad_request", message: "?" }),
    status: "fail",
    codes: ["H3.not-named"],
    says: [/error with code "bad_request"/],
  },
]);
