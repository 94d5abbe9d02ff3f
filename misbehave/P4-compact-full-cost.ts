import { defineMode } from "./mode.ts";

/** Breaks P4: a compact frame declares "the cost of its distilled inline bytes — never the full-source cost". */
export default defineMode({
  name: "P4-compact-full-cost",
  defect: "declares a compact frame's token_cost as the cost of the full source",
  expectFail: ["P4"],
  finding: { code: "P4.compact-cost", params: { canonical: true } },
  apply: (honest) => ({
    represent(doc, q) {
      const f = honest.represent.call(this, doc, q);
      return f.representation === "compact" ? { ...f, token_cost: f.canonical_token_cost } : f;
    },
  }),
});
