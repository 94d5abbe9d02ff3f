/**
 * Defect: composes frames by raw score, highest first, across providers (protocol-surface §7's ScoreDescending),
 * identical identities once.
 * Breaks context-reuse §1's "MUST emit them in canonical order", which §7 meets with "ranking by raw score and saying
 * so. All are permitted": where two sentences conflict only what both forbid fails, so it warns (host:CR1-order), as
 * does host:CR1-render, whose blocks part where a rescored frame moves and no score is written.
 */
import { compareIdentity } from "../../src/math/attest.ts";
import { defineHostMode } from "./mode.ts";

const score = (v: unknown): number => (typeof v === "number" ? v : 0);

export default defineHostMode({
  name: "CR1-score-order",
  defect: "composes its context block by raw score, highest first, across providers, not in canonical FrameId order",
  expectFail: [],
  expectWarn: ["host:CR1-order", "host:CR1-render"],
  finding: {
    "host:CR1-order": { code: "host:CR1-order.out-of-order", params: { scenario: "compose" } },
    "host:CR1-render": "host:CR1-render.bytes-differ",
  },
  apply: (honest) => ({
    order(held) {
      const once = honest.order.call(this, held);
      // Ties (none in the composition scenarios) keep canonical order: the sort is stable.
      return [...once].sort((a, b) => score(b.frame.score) - score(a.frame.score) || compareIdentity(this.frameId(a), this.frameId(b)));
    },
  }),
});
