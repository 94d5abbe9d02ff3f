import { defineMode } from "./mode.ts";

/** Breaks F1: "score MUST be in [0, 1]." */
export default defineMode({
  name: "F1-score-above-one",
  defect: "adds 0.5 to every score, pushing the best frames above 1",
  expectFail: ["F1"],
  finding: "F1.out-of-range",
  apply: (honest) => ({
    frame(doc) {
      return { ...honest.frame.call(this, doc), score: doc.score + 0.5 };
    },
  }),
});
