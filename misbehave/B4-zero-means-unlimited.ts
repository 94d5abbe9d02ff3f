import { defineMode } from "./mode.ts";

/** Breaks B4 at its edge: reads max_frames 0 as "no limit", a common sentinel, where the spec sets no such exception. */
export default defineMode({
  name: "B4-zero-means-unlimited",
  defect: "treats max_frames 0 as no limit",
  expectFail: ["B4"],
  finding: { code: "B4.over-max", params: { max: 0 } },
  apply: (honest) => ({
    select(ranked, q) {
      return honest.select.call(this, ranked, q.max_frames === 0 ? { ...q, max_frames: Number.MAX_SAFE_INTEGER } : q);
    },
  }),
});
