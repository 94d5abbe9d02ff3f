import { defineMode } from "./mode.ts";

/** Breaks B3: counts UTF-16 code units (String.length), not UTF-8 bytes. */
export default defineMode({
  name: "B3-utf16-length",
  defect: "computes token_cost as ceil(content.length / 4), which undercounts Japanese and emoji",
  expectFail: ["B3"],
  apply: () => ({
    tokenCost: (content) => Math.ceil(content.length / 4),
  }),
});
