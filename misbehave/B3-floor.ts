import { utf8ByteLength } from "../src/math/budget.ts";
import { defineMode } from "./mode.ts";

/** Breaks B3: rounds down where the rule says ceil. */
export default defineMode({
  name: "B3-floor",
  defect: "computes a full frame's token_cost as floor(UTF-8 bytes / 4)",
  expectFail: ["B3"],
  // floor(157/4) = 39, floor(198/4) = 49: one below the ceiling, on the frames where bytes are not a multiple of 4.
  finding: { code: "B3.cost-mismatch", params: { miscount: { kind: "floor" } } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, token_cost: Math.floor(utf8ByteLength(f.content as string) / 4) };
    },
  }),
});
