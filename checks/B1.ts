import { defineCheck } from "./kit/check.ts";
import { perAnswer } from "./kit/answers.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor B1
 * Stimulus: a generous query, then max_frames 1, then max_tokens one above the
 * cheapest frame's cost (probe budget-squeeze): a provider that ignores
 * budgets only shows it under pressure.
 */
export default defineCheck({
  id: "B1",
  title: "Returned frames' token_cost sum stays within max_tokens",
  level: "MUST",
  requirement: "The sum of token_cost across returned frames MUST NOT exceed the query's max_tokens.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    return perAnswer([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (x, frames) => {
      const max = x.body.max_tokens as number;
      const costs = frames.map((f) => (typeof f.token_cost === "number" ? f.token_cost : 0));
      const sum = costs.reduce((a, b) => a + b, 0);
      const lines = [x.query.n, x.answer!.n];
      return sum <= max
        ? { ok: true, message: `step ${x.step}: ${frames.length} frames cost ${sum} ≤ max_tokens ${max}`, lines }
        : {
            ok: false,
            message: `step ${x.step}: max_tokens was ${max} but the ${frames.length} frames returned declare token_cost ${costs.join(" + ")} = ${sum}`,
            expected: `sum ≤ ${max}`,
            actual: String(sum),
            lines,
          };
    });
  },
});
