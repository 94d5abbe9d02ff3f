/**
 * Defect: leaves out of its context block every frame scoring below 0.05, whichever provider served it.
 * Breaks F10: "score is provider-local and ordinal — this spec defines no shared scale. A host MUST NOT apply a
 * cross-provider score threshold".
 */
import { defineHostMode } from "./mode.ts";

/** The cut, applied to every provider's raw scores alike. */
const RELEVANCE_FLOOR = 0.05;

export default defineHostMode({
  name: "F10-global-threshold",
  defect: `composes only frames scoring at least ${RELEVANCE_FLOOR}, whichever provider's scale the score is on`,
  expectFail: ["host:F10"],
  finding: /the blocks hold none of cgp-conform-code's 2 frames .*: its frames were dropped for their scores alone, a threshold applied across providers/,
  apply: (honest) => ({
    compose(held) {
      return honest.compose.call(
        this,
        held.filter((h) => typeof h.frame.score === "number" && h.frame.score >= RELEVANCE_FLOOR),
      );
    },
  }),
});
