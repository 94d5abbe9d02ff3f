import { budgetTokens } from "../math/budget.ts";
import { defineProbe, query } from "./probe.ts";
import { framesIn, isObj, type Obj } from "../protocol/envelope.ts";
import { BUDGET_SQUEEZE, EXHAUSTIVE_CAP, framesStep, tokensStep, type Aim } from "../protocol/probes.ts";

/** A frame's cost as it declares it, or as B3 computes it from its content when the declaration is unusable. */
function cost(f: Obj): number {
  if (Number.isInteger(f.token_cost) && (f.token_cost as number) >= 0) return f.token_cost as number;
  return typeof f.content === "string" ? budgetTokens(f.content) : 0;
}

/** Result sizes at which the §6.5.3 Merkle split differs: a signed answer of each is audited (F12, F13). */
const MERKLE_SIZES = [2, 3, 5];

/**
 * B1, B4: a provider that ignores a budget only shows it under pressure, and
 * one that mishandles the edge only at the edge. After a generous query, the
 * boundaries are drawn from what it served: nothing fits (max_tokens 0 and 1,
 * one below the cheapest frame, max_frames 0), exactly one frame's cost, one
 * below the whole answer's sum, one frame fewer than it served. For a signed
 * answer, results of the sizes where the Merkle split differs are asked for too.
 */
export default defineProbe({
  ...BUDGET_SQUEEZE,
  async run(s, ctx) {
    s.send(BUDGET_SQUEEZE.steps.generous, query(ctx, "squeeze-1", {}), { rules: ["B1", "B4"], why: "discovery: what a generous budget is answered with" });
    const frames = framesIn(await s.reply());
    if (frames.length === 0) return;
    const costs = frames.map(cost);
    const positive = costs.filter((c) => c > 0);
    // A reduction, not Math.min(...): an answer may hold more frames than a call may take arguments.
    const cheapest = positive.length > 0 ? positive.reduce((a, b) => Math.min(a, b)) : undefined;
    const sum = costs.reduce((a, b) => a + b, 0);
    const n = frames.length;
    const signed = Array.isArray(ctx.ack?.attester_keys) && ctx.ack.attester_keys.some(isObj);

    const cases: Array<{ step: string; fields: Obj; aim: Aim; depth: 0 | 1 | 2 }> = [];
    const asked = { tokens: new Set<number>(), frames: new Set<number>() };
    const tokens = (step: string, max: number, why: string, depth: 0 | 1 | 2): void => {
      if (asked.tokens.has(max)) return;
      asked.tokens.add(max);
      cases.push({ step, fields: { max_tokens: max }, aim: { rules: ["B1"], why }, depth });
    };
    const count = (step: string, max: number, why: string, depth: 0 | 1 | 2, rules = ["B4"]): void => {
      if (asked.frames.has(max)) return;
      asked.frames.add(max);
      cases.push({ step, fields: { max_frames: max }, aim: { rules, why }, depth });
    };
    count(BUDGET_SQUEEZE.steps.oneFrame, 1, "one frame of the several served", 0);
    if (cheapest !== undefined) tokens(BUDGET_SQUEEZE.steps.tightTokens, cheapest + 1, `one token above the cheapest frame's cost (${cheapest})`, 0);
    tokens(tokensStep("0"), 0, "no budget at all: nothing fits, so nothing, or budget_unsatisfiable", 0);
    count(framesStep("0"), 0, "no frame allowed: nothing, or budget_unsatisfiable", 0);
    tokens(tokensStep("1"), 1, "one token: only a frame that small fits", 1);
    if (cheapest !== undefined && cheapest > 1)
      tokens(tokensStep("below-cheapest"), cheapest - 1, `one below the cheapest frame's cost (${cheapest}): no served frame fits`, 1);
    for (const [i, c] of [...new Set(positive)]
      .sort((a, b) => a - b)
      .slice(0, EXHAUSTIVE_CAP)
      .entries())
      tokens(tokensStep(`exact-${i + 1}`), c, `exactly one served frame's cost (${c})`, i < 2 ? 1 : 2);
    if (sum > 1) tokens(tokensStep("sum-minus-1"), sum - 1, `one below the sum of the generous answer (${sum}): not all of it fits`, 1);
    if (n > 2) count(framesStep("n-minus-1"), n - 1, `one fewer than the ${n} frames served`, 1);
    if (signed)
      for (const k of MERKLE_SIZES.filter((k) => k < n))
        count(framesStep(k), k, `a signed answer of ${k} frames, a size where the Merkle split differs`, 1, ["B4", "F12", "F13"]);
    for (let k = 2; k < Math.min(n, EXHAUSTIVE_CAP + 2); k++) count(framesStep(k), k, `a result of ${k} frames`, 2, signed ? ["B4", "F12", "F13"] : ["B4"]);

    const limit = ctx.depth === "quick" ? 0 : ctx.depth === "standard" ? 1 : 2;
    for (const [i, c] of cases.filter((c) => c.depth <= limit).entries()) {
      const id = `squeeze-${i + 2}`;
      s.send(c.step, query(ctx, id, c.fields), c.aim);
      if (!(await s.reply()) && s.stalled) return;
    }
  },
});
