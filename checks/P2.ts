import { defineCheck } from "./kit/check.ts";
import { REPRESENTATION_PROBES, shape, shapeRule } from "./kit/representation.ts";

/**
 * @anchor P2
 * Stimulus: every compact frame served to probes sample-query, budget-squeeze and
 * representations (which prefers each advertised representation in turn).
 */
export default defineCheck({
  findings: shape.table,
  id: "P2",
  title: "A compact frame carries its rendering and the means to fetch the original",
  level: "MUST",
  requirement: "A compact frame MUST carry all of content, content_digest, canonical_content_hash, transform, and content_ref.",
  probes: REPRESENTATION_PROBES,
  score: ({ probe }) =>
    shapeRule(REPRESENTATION_PROBES.map(probe), "compact", ["content", "content_digest", "canonical_content_hash", "transform", "content_ref"], []),
});
