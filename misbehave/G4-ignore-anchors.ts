import { defineMode } from "./mode.ts";

/** Breaks G4: declares capabilities.graph, then ranks as if no anchor were given. */
export default defineMode({
  name: "G4-ignore-anchors",
  defect: "declares graph and ignores query anchors",
  expectFail: ["G4"],
  finding: /with max_frames 1, the provider returned unanchored frame/,
  apply: (honest) => ({
    rank(docs, q) {
      return honest.rank.call(this, docs, { ...q, anchors: [] });
    },
  }),
});
