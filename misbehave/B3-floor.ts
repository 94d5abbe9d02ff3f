import { utf8ByteLength } from "../src/math/budget.ts";
import { defineMode } from "./mode.ts";

/** Breaks B3: rounds down where the rule says ceil. */
export default defineMode({
  name: "B3-floor",
  defect: "computes token_cost as floor(UTF-8 bytes / 4)",
  expectFail: ["B3"],
  apply: () => ({
    tokenCost: (content) => Math.floor(utf8ByteLength(content) / 4),
  }),
});
