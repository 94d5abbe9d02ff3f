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
  finding: { code: "host:F10.threshold", params: { low: { name: "cgp-conform-code", held: 0, served: 2 } } },
  apply: (honest) => ({
    compose(held) {
      return honest.compose.call(
        this,
        held.filter((h) => typeof h.frame.score === "number" && h.frame.score >= RELEVANCE_FLOOR),
      );
    },
  }),
});
