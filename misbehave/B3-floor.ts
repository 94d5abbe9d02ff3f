import { utf8ByteLength } from "../src/math/budget.ts";
import { defineMode } from "./mode.ts";

/** Breaks B3: rounds down where the rule says ceil. */
export default defineMode({
  name: "B3-floor",
  defect: "computes a full frame's token_cost as floor(UTF-8 bytes / 4)",
  expectFail: ["B3"],
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, token_cost: Math.floor(utf8ByteLength(f.content as string) / 4) };
    },
  }),
});
