import { defineMode } from "./mode.ts";

/**
 * Breaks B1: checks each frame's cost against max_tokens on its own, never
 * their sum. A budget only one frame fits never shows it; a budget one
 * frame's exact cost, or one below the whole answer's sum, does.
 */
export default defineMode({
  name: "B1-per-frame-budget",
  defect: "admits every frame whose own token_cost fits max_tokens, never checking their sum",
  expectFail: ["B1"],
  finding: { code: "B1.over-budget", params: { fits_each: true } },
  apply: () => ({
    select(ranked, q) {
      return ranked.filter((f) => (f.token_cost as number) <= q.max_tokens).slice(0, q.max_frames);
    },
  }),
});
