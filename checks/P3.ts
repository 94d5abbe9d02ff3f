import { defineCheck } from "./kit/check.ts";
import { REPRESENTATION_PROBES, shape, shapeRule } from "./kit/representation.ts";

/**
 * @anchor P3
 * Stimulus: every reference frame served to probes sample-query, budget-squeeze and
 * representations (which prefers each advertised representation in turn).
 */
export default defineCheck({
  findings: shape.table,
  id: "P3",
  title: "A reference frame carries a handle and no inline content",
  level: "MUST",
  requirement: 'A reference frame MUST carry content_ref and canonical_content_hash, and MUST NOT carry content (not even ""), content_digest, or transform.',
  probes: REPRESENTATION_PROBES,
  score: ({ probe }) =>
    shapeRule(REPRESENTATION_PROBES.map(probe), "reference", ["content_ref", "canonical_content_hash"], ["content", "content_digest", "transform"]),
});
