import { framesIn } from "../transcript/view.ts";
import { budgetTokens } from "../math/budget.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";

/**
 * A provider that ignores budgets only shows it under pressure: after a
 * generous query, ask for one frame, then for barely more tokens than the
 * cheapest frame costs.
 */
export default defineProbe({
  name: "budget-squeeze",
  summary: "queries generously, then with max_frames 1, then with max_tokens one above the cheapest frame's cost",
  handshake: true,
  shared: true,
  async run(s, ctx) {
    s.send("generous", query(ctx, "squeeze-1", {}));
    const frames = framesIn(await awaitAnswer(s, "squeeze-1"));
    if (frames.length === 0) return;

    s.send("one-frame", query(ctx, "squeeze-2", { max_frames: 1 }));
    if (!(await awaitAnswer(s, "squeeze-2"))) return;

    const costs = frames
      .map((f) => (typeof f.content === "string" ? budgetTokens(f.content) : 0))
      .filter((c) => c > 0);
    if (costs.length === 0) return;
    s.send("tight-tokens", query(ctx, "squeeze-3", { max_tokens: Math.min(...costs) + 1 }));
    await awaitAnswer(s, "squeeze-3");
  },
});
