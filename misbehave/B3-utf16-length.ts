import { defineMode } from "./mode.ts";

/** Breaks B3: counts UTF-16 code units (String.length), not UTF-8 bytes. */
export default defineMode({
  name: "B3-utf16-length",
  defect: "computes a full frame's token_cost as ceil(content.length / 4), which undercounts Japanese and emoji",
  expectFail: ["B3"],
  // ceil(72/4) = 18: the UTF-16 count of the Japanese frame, not its 198 bytes.
  finding: { code: "B3.cost-mismatch", params: { declared: 18, bytes: 198, miscount: { kind: "characters", n: 72 } } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, token_cost: Math.ceil((f.content as string).length / 4) };
    },
  }),
});
