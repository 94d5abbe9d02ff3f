import { defineMode } from "./mode.ts";

/** Breaks Q1: "When kinds is non-empty, a provider MUST NOT return a frame whose kind is outside it." */
export default defineMode({
  name: "Q1-ignore-kinds",
  defect: "declares query.kinds and ignores the kinds filter",
  expectFail: ["Q1"],
  finding: { code: "Q1.other-kind", params: { kinds: ["doc"], narrowing: "kind" } },
  apply: (honest) => ({
    eligible(q) {
      return honest.eligible.call(this, { ...q, kinds: [] });
    },
  }),
});
