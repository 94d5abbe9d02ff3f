import { counted } from "../src/verdict/words.ts";
import { defineCheck } from "./kit/check.ts";
import { exchanges, fitting, nothingFits, perAnswer, withExtra } from "./kit/answers.ts";
import { findings } from "./kit/findings.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

type Count = { step: string; max: number; served: number };

const F = findings({
  within: { ok: true, says: (p: Count) => `step ${p.step}: ${counted(p.served, "frame")} ≤ max_frames ${p.max}` },
  "over-max": {
    says: (p: Count) => `step ${p.step}: max_frames was ${p.max} but ${counted(p.served, "frame")} ${p.served === 1 ? "was" : "were"} returned`,
    expected: (p: Count) => `≤ ${p.max}`,
    actual: (p: Count) => String(p.served),
  },
});

/**
 * @anchor B4
 * Stimulus: probe budget-squeeze, derived from a generous query: max_frames
 * 0, 1, one below the number served (and, for a signed answer, 2, 3 and 5); and
 * every other answer of sample-query and budget-squeeze.
 * Reading: an error answering max_frames 0 is judged against the error
 * table's budget_unsatisfiable, which carries no keyword: another code warns.
 */
export default defineCheck({
  findings: { ...F.table, ...fitting.table },
  id: "B4",
  title: "Returned frame count stays within max_frames",
  level: "MUST",
  requirement: "The number of returned frames MUST NOT exceed max_frames.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const unsatisfiable = nothingFits(exchanges([probe(BUDGET_SQUEEZE)]), (x) => (x.body.max_frames === 0 ? { member: "max_frames", max: 0 } : undefined));
    const counts = perAnswer(
      [probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)],
      (x, frames) => {
        const max = x.body.max_frames as number;
        const lines = [x.query.n, x.answer!.n];
        return F.say(frames.length <= max ? "within" : "over-max", { step: x.step, max, served: frames.length }, { lines });
      },
      "B4",
    );
    return withExtra(counts, unsatisfiable);
  },
});
