import { defineCheck } from "../src/check.ts";
import { frameName, perFrame } from "../src/transcript/answers.ts";
import { show } from "../src/transcript/view.ts";

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
  score({ probe }) {
    return perFrame([probe("sample-query"), probe("budget-squeeze")], "carry a non-empty title", (f) => {
      const v = f.frame.title;
      const ok = typeof v === "string" && v.length > 0;
      return ok
        ? { ok, message: "", lines: [f.line] }
        : { ok, message: `${frameName(f)} has an empty or missing title`, expected: "a non-empty string", actual: show(v), lines: [f.line] };
    });
  },
});
