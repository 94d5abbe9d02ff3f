import { defineMode } from "./mode.ts";

/** Breaks B4: "The number of returned frames MUST NOT exceed max_frames." */
export default defineMode({
  name: "B4-ignore-max-frames",
  defect: "packs frames by max_tokens alone, ignoring max_frames",
  expectFail: ["B4"],
  finding: { code: "B4.over-max", params: { max: 1, served: 5 } },
  apply: (honest) => ({
    select(ranked, q) {
      return honest.select.call(this, ranked, { ...q, max_frames: Number.MAX_SAFE_INTEGER });
    },
  }),
});
