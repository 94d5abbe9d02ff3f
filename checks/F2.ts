import { defineCheck } from "./kit/check.ts";
import { nonEmptyField } from "./kit/answers.ts";

/**
 * @anchor F2
 * Stimulus: every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "F2",
  title: "Every frame has a non-empty title",
  level: "MUST",
  requirement: "title MUST be non-empty.",
  probes: ["sample-query", "budget-squeeze"],
  score: ({ probe }) => nonEmptyField([probe("sample-query"), probe("budget-squeeze")], "title"),
});
