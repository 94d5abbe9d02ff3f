import { defineMode } from "./mode.ts";

/** Breaks F13: "the leaf count is part of the proof because a root alone does not pin the tree's size". */
export default defineMode({
  name: "F13-wrong-leaf-count",
  defect: "declares leaf_count one more than the frames returned",
  expectFail: ["F13"],
  finding: { code: "F13.wrong-leaf-count", params: { declared: 6, frames: 5 } },
  apply: (honest) => ({
    inclusion(frames, index) {
      const p = honest.inclusion.call(this, frames, index);
      return p && { ...p, leaf_count: p.leaf_count + 1 };
    },
  }),
});
