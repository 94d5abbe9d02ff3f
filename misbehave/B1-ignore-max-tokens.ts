import { defineMode } from "./mode.ts";

/** Breaks B1: "The sum of token_cost across returned frames MUST NOT exceed the query's max_tokens." */
export default defineMode({
  name: "B1-ignore-max-tokens",
  defect: "packs frames up to max_frames and ignores max_tokens",
  expectFail: ["B1"],
  finding: { code: "B1.over-budget", params: { fits_each: false } },
  apply: () => ({
    select(ranked, q) {
      return ranked.slice(0, q.max_frames);
    },
  }),
});
