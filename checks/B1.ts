import { defineCheck, type Evidence } from "../src/check.ts";
import { exchanges, framesOf, unanswered } from "../src/transcript/answers.ts";

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
  probes: ["sample-query", "budget-squeeze"],
  score({ probe }) {
    const views = [probe("sample-query"), probe("budget-squeeze")];
    const xs = exchanges(views);
    const out: Evidence[] = unanswered(xs, views);
    for (const x of xs) {
      const frames = framesOf(x);
      if (!frames || frames.length === 0) continue;
      const max = x.body.max_tokens as number;
      const costs = frames.map((f) => (typeof f.token_cost === "number" ? f.token_cost : 0));
      const sum = costs.reduce((a, b) => a + b, 0);
      const lines = [x.query.n, x.answer!.n];
      out.push(sum <= max
        ? { ok: true, message: `step ${x.step}: ${frames.length} frames cost ${sum} ≤ max_tokens ${max}`, lines }
        : {
          ok: false,
          message: `step ${x.step}: max_tokens was ${max} but the ${frames.length} frames returned declare token_cost ${costs.join(" + ")} = ${sum}`,
          expected: `sum ≤ ${max}`,
          actual: String(sum),
          lines,
        });
    }
    return out.length > 0 ? out : { skip: "no query was answered with any frame, so no budget was put to use" };
  },
});
