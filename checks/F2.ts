import { defineCheck } from "./kit/check.ts";
import { nonEmptyField } from "./kit/answers.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor F2
 * Stimulus: every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "F2",
  title: "Every frame has a non-empty title",
  level: "MUST",
  requirement: "title MUST be non-empty.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score: ({ probe }) => nonEmptyField([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], "title"),
});
