import { defineCheck } from "./kit/check.ts";
import { perAnswer } from "./kit/answers.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor B4
 * Stimulus: as B1; the max_frames 1 query is the one that bites.
 */
export default defineCheck({
  id: "B4",
  title: "Returned frame count stays within max_frames",
  level: "MUST",
  requirement: "The number of returned frames MUST NOT exceed max_frames.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    return perAnswer([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (x, frames) => {
      const max = x.body.max_frames as number;
      const lines = [x.query.n, x.answer!.n];
      return frames.length <= max
        ? { ok: true, message: `step ${x.step}: ${frames.length} frames ≤ max_frames ${max}`, lines }
        : {
            ok: false,
            message: `step ${x.step}: max_frames was ${max} but ${frames.length} frames were returned`,
            expected: `≤ ${max}`,
            actual: String(frames.length),
            lines,
          };
    });
  },
});
