import { defineCheck } from "./kit/check.ts";
import { REPRESENTATION_PROBES, shape, shapeRule } from "./kit/representation.ts";

/**
 * @anchor P1
 * Stimulus: every full frame served to probes sample-query, budget-squeeze and
 * representations (which prefers each advertised representation in turn).
 */
export default defineCheck({
  findings: shape.table,
  id: "P1",
  title: "A full frame carries content and nothing of the other representations",
  level: "MUST",
  requirement: "A full frame MUST carry content and MUST NOT carry content_ref, transform, or canonical_content_hash.",
  probes: REPRESENTATION_PROBES,
  score: ({ probe }) => shapeRule(REPRESENTATION_PROBES.map(probe), "full", ["content"], ["content_ref", "transform", "canonical_content_hash"]),
});
