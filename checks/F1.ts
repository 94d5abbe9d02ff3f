import { defineCheck, site } from "./kit/check.ts";
import { everyFrame, frameAt, framed, kept, SERVED_ELSEWHERE, type FrameAt } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

const F = findings({
  "out-of-range": {
    // A number past either end is one defect; a string or a null for a score is another.
    apart: (p: { score: Param }) => (typeof p.score === "number" ? "number" : p.score === null ? "null" : typeof p.score),
    says: (p: { frame: FrameAt; score: Param }) => `${framed(p.frame)} has score ${show(p.score)}, outside [0, 1]`,
    expected: () => "a number 0 ≤ score ≤ 1",
    actual: (p: { score: Param }) => show(p.score),
  },
});

/**
 * @anchor F1
 * Stimulus: every frame served to probes sample-query and budget-squeeze;
 * every other frame received is judged too, its failures only, so a score
 * out of range anywhere is one finding here, not a bare schema violation
 * beside it.
 */
export default defineCheck({
  findings: F.table,
  id: "F1",
  title: "Every frame's score is in [0, 1]",
  level: "MUST",
  requirement: "score MUST be in [0, 1].",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  observes: SERVED_ELSEWHERE,
  score({ probe }) {
    return everyFrame(probe, "carry a score in [0, 1]", (f) => {
      const s = f.frame.score;
      if (s === undefined) return undefined;
      const ok = typeof s === "number" && s >= 0 && s <= 1;
      if (ok) return kept(f.line);
      // The schema's range (and type) at this member is this rule: said once, here.
      return F.say("out-of-range", { frame: frameAt(f), score: s as Param }, { lines: [f.line], judges: [site(f.line, `/result/frames/${f.index}/score`)] });
    });
  },
});
