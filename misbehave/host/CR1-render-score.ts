/**
 * Defect: writes each frame's score into its fence, as a score="…" attribute.
 * Breaks context-reuse §1: "A host that composes a set of frames into a single context block: […] MUST NOT let a
 * frame's score or token_cost affect the rendered bytes".
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "CR1-render-score",
  defect: 'renders each frame\'s score in its fence (score="0.97"), frames still in canonical order',
  expectFail: ["host:CR1-render"],
  finding: { code: "host:CR1-render.score-rendered", params: { steady: { by: "control" } } },
  apply: (honest) => ({
    attributes(held) {
      return [...honest.attributes.call(this, held), ["score", String(held.frame.score)]];
    },
  }),
});
