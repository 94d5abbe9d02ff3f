import { defineMode } from "./mode.ts";

/** Breaks §2: nothing but envelopes on stdout. */
export default defineMode({
  name: "S2-banner",
  defect: "prints a start-up banner on stdout before the first envelope",
  expectFail: [],
  expectWarn: ["S2-framing"],
  finding: { code: "S2-framing.not-envelope", params: { text: "cgp-conform reference provider ready" } },
  stdioOnly: "a start-up banner is a stdio framing defect",
  apply: () => ({
    banner: () => ["cgp-conform reference provider ready"],
  }),
});
