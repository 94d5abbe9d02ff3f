import { counted } from "../src/verdict/words.ts";
import { defineCheck } from "./kit/check.ts";
import { exchanges, nothingFits, perAnswer, withExtra } from "./kit/answers.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor B4
 * Stimulus: probe budget-squeeze, derived from a generous query: max_frames
 * 0, 1, one below the number served (and, for a signed answer, 2, 3 and 5); and
 * every other answer of sample-query and budget-squeeze.
 * Reading: an error answering max_frames 0 is judged against the error
 * table's budget_unsatisfiable, which carries no keyword: another code warns.
 */
export default defineCheck({
  id: "B4",
  title: "Returned frame count stays within max_frames",
  level: "MUST",
  requirement: "The number of returned frames MUST NOT exceed max_frames.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const unsatisfiable = nothingFits(exchanges([probe(BUDGET_SQUEEZE)]), (x) => (x.body.max_frames === 0 ? "max_frames 0 admits no frame" : undefined));
    const counts = perAnswer(
      [probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)],
      (x, frames) => {
        const max = x.body.max_frames as number;
        const lines = [x.query.n, x.answer!.n];
        return frames.length <= max
          ? { ok: true, message: `step ${x.step}: ${counted(frames.length, "frame")} ≤ max_frames ${max}`, lines }
          : {
              ok: false,
              message: `step ${x.step}: max_frames was ${max} but ${counted(frames.length, "frame")} ${frames.length === 1 ? "was" : "were"} returned`,
              expected: `≤ ${max}`,
              actual: String(frames.length),
              lines,
            };
      },
      "B4",
    );
    return withExtra(counts, unsatisfiable);
  },
});
