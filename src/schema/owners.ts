import type { SchemaError } from "./index.ts";

/** Anything not claimed below is envelope-level shape: type, required members, unknown members. */
const ENVELOPE = "S2-envelope";

/**
 * A representation invariant is owned by the rule that fired, which the field
 * alone cannot tell: content_ref on a full frame breaks P1, missing on a
 * compact one breaks P2. "P4: token_cost is the honest cost of the inline
 * rendering only (B3, §7)", so token_cost stays B3 on full frames.
 */
const REPRESENTATION: Record<string, { owner: string; tokenCost: string }> = {
  RepresentationFull: { owner: "P1", tokenCost: "B3" },
  RepresentationCompact: { owner: "P2", tokenCost: "P4" },
  RepresentationReference: { owner: "P3", tokenCost: "P4" },
};

const FRAME = "/result/frames/\\*";

/** [envelope type, normalized instance path, owner]; first match wins, so specific paths come first. */
const TABLE: ReadonlyArray<readonly [string, RegExp, string]> = [
  ["handshake_ack", /^\/protocol_version$/, "H1"],
  ["handshake_ack", /^\/provider\/(name|version)$/, "H2"],
  // C5's MUST is the scope contradiction alone ("egress_scopes" beside egress: false); data_flow's required members
  // and types are the wire shape's (S2-envelope), so only the schema's then-branch at egress_scopes is C5's (see ownerOf).
  ["handshake_ack", /^\/provider\/data_flow\/egress_scopes(\/.*)?$/, "C5"],
  ["handshake_ack", /^\/capabilities\/embeddings_fingerprint$/, "E1"],
  // §6.4: "A provider advertising compact or reference MUST set resolve: true", held with P5.
  ["handshake_ack", /^\/capabilities\/(representations|resolve)(\/.*)?$/, "P5"],
  ["handshake_ack", /^\/attester_keys(\/.*)?$/, "S6-signatures"],

  ["query", /^\/query\/embedding(\/.*)?$/, "E1"],
  ["query", /^\/query\/as_of$/, "F4"],

  ["frames", re(`${FRAME}/score`), "F1"],
  ["frames", re(`${FRAME}/title`), "F2"],
  ["frames", re(`${FRAME}/citation_label`), "F3"],
  ["frames", re(`${FRAME}/(valid_from|valid_to|recorded_at|content_ref/expires_at)`), "F4"],
  ["frames", re(`${FRAME}/provenance(/.*)?`), "F5"],
  ["frames", re(`${FRAME}/content_digest`), "D1"],
  ["frames", re(`${FRAME}/relations/\\*/display_name`), "G1"],
  // U3: "a vendor-specific rel ... MUST be namespaced (vendor:name, non-empty on both sides)".
  ["frames", re(`${FRAME}/relations/\\*/rel`), "U3"],
  ["frames", re(`${FRAME}/relations(/.*)?`), "G2"],
  ["frames", re(`${FRAME}/embedding(/.*)?`), "E1"],
  ["frames", re(`${FRAME}/token_cost`), "B3"],
  ["frames", re(`${FRAME}/canonical_token_cost`), "P4"],
  // F6: an attestation "MUST NOT appear inside the frame it signs" (the closed frame rejects it in lint).
  ["frames", re(`${FRAME}/(attestation|attestations|frame_attestations|result_attestation)`), "F6"],
  // The inner shape of the handles P2 enumerates (P3 requires content_ref too, but ajv
  // reports a $ref target's path, not the branch that reached it); presence is exact above.
  ["frames", re(`${FRAME}/(content_ref|transform)(/.*)?`), "P2"],
  ["frames", /^\/result\/(frame_attestations\/\*\/attestation|result_attestation)\/issued_at$/, "F4"],
  ["frames", /^\/result\/frame_attestations\/\*\/frame\/content_digest$/, "D1"],
  ["frames", /^\/result\/(frame_attestations|result_attestation)(\/.*)?$/, "F11"],

  ["verify", /^\/request\/frames\/\*\/content_digest$/, "D1"],

  ["verified", /^\/response\/verdicts\/\*\/frame\/content_digest$/, "D1"],
  ["verified", /^\/response\/verdicts\/\*\/status$/, "V3"],
  ["verified", /^\/response\/verdicts\/\*\/replacement_digest$/, "V4"],
  ["verified", /^\/response(\/.*)?$/, "V2"],

  // U3: a vendor error code is namespaced; the code vocabulary is otherwise open (X1).
  ["error", /^\/code$/, "U3"],
];

function re(path: string): RegExp {
  return new RegExp(`^${path}$`);
}

// Array indices become "*": "/result/frames/3/title" -> "/result/frames/*/title".
// Segments stay pointer-escaped, so a member named "a/b" cannot pose as two.
function normalize(instancePath: string): string {
  return instancePath.replace(/\/\d+(?=\/|$)/g, "/*");
}

/** The spec anchor owning the field a schema error is about, so the violation is reported under it. */
export function ownerOf(envelopeType: string, e: SchemaError): string {
  const path = normalize(e.instancePath);
  // A scope outside the vocabulary and not vendor:name is U3's; one off-machine beside egress: false is C5's.
  if (e.schemaPath.startsWith("#/$defs/EgressScope/")) return "U3";
  // A contradiction of the egress flag (the schema's if/then) is C5's, wherever ajv reports it.
  if (/^#\/\$defs\/DataFlow\/then\//.test(e.schemaPath) || (envelopeType === "handshake_ack" && e.keyword === "if" && path === "/provider/data_flow"))
    return "C5";
  const branch = /^#\/\$defs\/(Representation\w+)\//.exec(e.schemaPath)?.[1];
  const rule = branch === undefined ? undefined : REPRESENTATION[branch];
  if (rule) return path.endsWith("/token_cost") ? rule.tokenCost : rule.owner;
  for (const [type, pattern, owner] of TABLE) if (type === envelopeType && pattern.test(path)) return owner;
  return ENVELOPE;
}
