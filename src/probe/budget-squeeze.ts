import { budgetTokens } from "../math/budget.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";
import { framesIn } from "../protocol/envelope.ts";
import { BUDGET_SQUEEZE } from "../protocol/probes.ts";

/**
 * A provider that ignores budgets only shows it under pressure: after a
 * generous query, ask for one frame, then for barely more tokens than the
 * cheapest frame costs.
 */
export default defineProbe({
  ...BUDGET_SQUEEZE,
  async run(s, ctx) {
    s.send(BUDGET_SQUEEZE.steps.generous, query(ctx, "squeeze-1", {}));
    const frames = framesIn(await awaitAnswer(s, "squeeze-1"));
    if (frames.length === 0) return;

    s.send(BUDGET_SQUEEZE.steps.oneFrame, query(ctx, "squeeze-2", { max_frames: 1 }));
    if (!(await awaitAnswer(s, "squeeze-2"))) return;

    const costs = frames.map((f) => (typeof f.content === "string" ? budgetTokens(f.content) : 0)).filter((c) => c > 0);
    if (costs.length === 0) return;
    s.send(BUDGET_SQUEEZE.steps.tightTokens, query(ctx, "squeeze-3", { max_tokens: Math.min(...costs) + 1 }));
    await awaitAnswer(s, "squeeze-3");
  },
});
