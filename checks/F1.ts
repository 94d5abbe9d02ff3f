import { defineCheck } from "./kit/check.ts";
import { frameName, perFrame } from "./kit/answers.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor F1
 * Stimulus: every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "F1",
  title: "Every frame's score is in [0, 1]",
  level: "MUST",
  requirement: "score MUST be in [0, 1].",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    return perFrame([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], "carry a score in [0, 1]", (f) => {
      const s = f.frame.score;
      if (s === undefined) return undefined;
      const ok = typeof s === "number" && s >= 0 && s <= 1;
      return ok
        ? { ok, message: "", lines: [f.line] }
        : { ok, message: `${frameName(f)} has score ${show(s)}, outside [0, 1]`, expected: "a number 0 ≤ score ≤ 1", actual: show(s), lines: [f.line] };
    });
  },
});
