import { defineMode } from "./mode.ts";

/**
 * Breaks G4: matches only anchors that carry a fragment (a symbol, #name),
 * so an anchor naming a whole document biases nothing. An anchor on a
 * symbol's uri or on a relation target (both with fragments here) passes;
 * only an anchor on a document frame's own uri shows it.
 */
export default defineMode({
  name: "G4-fragment-anchors-only",
  defect: "honours only anchors with a #fragment; a whole-document anchor is ignored",
  expectFail: ["G4"],
  finding: { code: "G4.no-anchored", params: { via: "uri", fragment: false } },
  apply: (honest) => ({
    rank(docs, q) {
      return honest.rank.call(this, docs, { ...q, anchors: q.anchors.filter((a) => a.includes("#")) });
    },
  }),
});
