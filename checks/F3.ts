import { defineCheck } from "./kit/check.ts";
import { nonEmptyField } from "./kit/answers.ts";

/**
 * @anchor F3
 * Stimulus: every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "F3",
  title: "Every frame has a non-empty citation_label",
  level: "MUST",
  requirement: "citation_label MUST be non-empty — a host must be able to cite a frame by a human label, never a bare id.",
  probes: ["sample-query", "budget-squeeze"],
  score: ({ probe }) => nonEmptyField([probe("sample-query"), probe("budget-squeeze")], "citation_label"),
});
