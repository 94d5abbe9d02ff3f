import { defineMode } from "./mode.ts";

/** Breaks G4: declares capabilities.graph, then ranks as if no anchor were given. */
export default defineMode({
  name: "G4-ignore-anchors",
  defect: "declares graph and ignores query anchors",
  expectFail: ["G4"],
  // A provider honouring only "#fragment" anchors (G4-fragment-anchors-only) never misses one of those.
  finding: { code: "G4.no-anchored", params: { fragment: true } },
  apply: (honest) => ({
    rank(docs, q) {
      return honest.rank.call(this, docs, { ...q, anchors: [] });
    },
  }),
});
