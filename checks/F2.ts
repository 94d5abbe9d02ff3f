import { defineCheck } from "./kit/check.ts";
import { nonEmpty, nonEmptyField, SERVED_ELSEWHERE } from "./kit/answers.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor F2
 * Stimulus: every frame served to probes sample-query and budget-squeeze;
 * every other frame received is judged too, its failures only, so an empty
 * one anywhere is one finding here, not a bare schema violation beside it.
 */
export default defineCheck({
  findings: nonEmpty.table,
  id: "F2",
  title: "Every frame has a non-empty title",
  level: "MUST",
  requirement: "title MUST be non-empty.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  observes: SERVED_ELSEWHERE,
  score: ({ probe }) => nonEmptyField(probe, "title"),
});
