import { defineCheck } from "./kit/check.ts";
import { findings } from "./kit/findings.ts";
import { HANDSHAKE } from "../src/protocol/probes.ts";

const F = findings({
  validated: {
    ok: true,
    says: (p: { envelopes: number }) =>
      `${p.envelopes} envelopes received were validated against the envelope schema (interop mode); violations are reported under the anchor that owns the field`,
  },
});

/**
 * @section 2 (no anchor number)
 * Stimulus: every envelope received in every probe, validated against
 * schema/contextgraph-envelope.schema.json in interop mode (U1: unknown
 * members ignored). A violation of a field some anchor owns is reported
 * under that anchor; what no anchor owns (the envelope's own shape) is here.
 */
export default defineCheck({
  findings: F.table,
  id: "S2-envelope",
  follows: "S2-framing",
  title: "Every envelope has the shape the schema gives its type",
  level: "MUST",
  basis: "the schema's members, types and enums",
  requirement:
    "Every message is a single JSON object — an envelope — tagged by a type member. Envelope vocabulary: handshake, handshake_ack, query, frames, verify, verified, shutdown, error.",
  probes: [HANDSHAKE],
  score: ({ validated }) => [F.say("validated", { envelopes: validated() }, { lines: [] })],
});
