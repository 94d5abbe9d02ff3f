import type { Obj } from "../src/protocol/envelope.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks B1 at its edge: "return at least something" — when no frame fits
 * max_tokens, it returns the cheapest one anyway. A budget that some frame
 * fits never shows it; only max_tokens below the cheapest frame's cost does.
 */
export default defineMode({
  name: "B1-cheapest-when-nothing-fits",
  defect: "returns its cheapest frame when no frame fits max_tokens, instead of nothing",
  expectFail: ["B1"],
  finding: { code: "B1.over-budget", params: { frames: 1, fits_each: false } },
  apply: (honest) => ({
    select(ranked, q) {
      const picked = honest.select.call(this, ranked, q);
      if (picked.length > 0 || ranked.length === 0 || q.max_frames === 0) return picked;
      return [[...ranked].sort((a: Obj, b: Obj) => (a.token_cost as number) - (b.token_cost as number))[0]!];
    },
  }),
});
