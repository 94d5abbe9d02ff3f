import { counted } from "../src/verdict/words.ts";
import { defineCheck } from "./kit/check.ts";
import { exchanges, fitting, framesOf, nothingFits, perAnswer, withExtra } from "./kit/answers.ts";
import { findings } from "./kit/findings.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** fits_each: every frame returned fits max_tokens on its own, only their sum does not. */
type Sum = { step: string; max: number; frames: number; costs: number[]; sum: number; fits_each: boolean };

const F = findings({
  within: { ok: true, says: (p: Sum) => `step ${p.step}: ${counted(p.frames, "frame")} cost ${p.sum} ≤ max_tokens ${p.max}` },
  "over-budget": {
    says: (p: Sum) =>
      `step ${p.step}: max_tokens was ${p.max} but the ${counted(p.frames, "frame")} returned declare token_cost ${p.costs.join(" + ")} = ${p.sum}`,
    expected: (p: Sum) => `sum ≤ ${p.max}`,
    actual: (p: Sum) => String(p.sum),
  },
});

/**
 * @anchor B1
 * Stimulus: probe budget-squeeze, derived from a generous query: max_tokens
 * 0 and 1, one below the cheapest served cost, each served cost exactly, one
 * above the cheapest, one below the sum served; and every other answer of
 * sample-query and budget-squeeze. A provider that ignores budgets only shows
 * it under pressure, and one that mishandles the edge only at the edge.
 * Reading: an error answering a budget no served frame fits is judged against
 * the error table's budget_unsatisfiable, which carries no keyword: another
 * code warns.
 */
export default defineCheck({
  findings: { ...F.table, ...fitting.table },
  id: "B1",
  title: "Returned frames' token_cost sum stays within max_tokens",
  level: "MUST",
  requirement: "The sum of token_cost across returned frames MUST NOT exceed the query's max_tokens.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const squeeze = exchanges([probe(BUDGET_SQUEEZE)]);
    const first = squeeze[0] ? framesOf(squeeze[0]) : undefined;
    const costs = (first ?? []).map((f) => f.token_cost).filter((c): c is number => typeof c === "number" && c > 0);
    const cheapest = costs.length > 0 ? costs.reduce((a, b) => Math.min(a, b)) : undefined;
    const unsatisfiable = nothingFits(squeeze.slice(1), (x) => {
      const max = x.body.max_tokens;
      return typeof max === "number" && cheapest !== undefined && max < cheapest ? { member: "max_tokens", max, cheapest } : undefined;
    });
    const sums = perAnswer(
      [probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)],
      (x, frames) => {
        const max = x.body.max_tokens as number;
        const costs = frames.map((f) => (typeof f.token_cost === "number" ? f.token_cost : 0));
        const sum = costs.reduce((a, b) => a + b, 0);
        const lines = [x.query.n, x.answer!.n];
        const p = { step: x.step, max, frames: frames.length, costs, sum, fits_each: costs.every((c) => c <= max) };
        return F.say(sum <= max ? "within" : "over-budget", p, { lines });
      },
      "B1",
    );
    return withExtra(sums, unsatisfiable);
  },
});
