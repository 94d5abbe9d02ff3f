import type { Obj } from "../src/protocol/envelope.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks G3: an anchor decides which frames survive a tight budget (so G4's
 * MUST holds), but not where they rank: what is returned keeps the
 * unanchored order, so a frame near the anchor is never boosted.
 */
export default defineMode({
  name: "G3-no-anchor-boost",
  defect: "keeps anchored frames under a tight budget but never ranks them higher",
  expectFail: ["G3"],
  finding: "G3.not-boosted",
  apply: (honest) => ({
    select(ranked, q) {
      const kept = new Set(honest.select.call(this, ranked, q));
      const plain = honest.rank.call(this, this.eligible(q), { ...q, anchors: [] }).map((d) => d.id);
      return [...kept].sort((a: Obj, b: Obj) => plain.indexOf(a.id as string) - plain.indexOf(b.id as string));
    },
  }),
});
