import { defineCheck } from "../src/check.ts";
import { frameName, perFrame } from "../src/transcript/answers.ts";
import { show } from "../src/transcript/view.ts";

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
  score({ probe }) {
    return perFrame([probe("sample-query"), probe("budget-squeeze")], "carry a non-empty citation_label", (f) => {
      const v = f.frame.citation_label;
      const ok = typeof v === "string" && v.length > 0;
      return ok
        ? { ok, message: "", lines: [f.line] }
        : { ok, message: `${frameName(f)} has an empty or missing citation_label`, expected: "a non-empty string", actual: show(v), lines: [f.line] };
    });
  },
});
