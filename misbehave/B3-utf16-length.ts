import { defineMode } from "./mode.ts";

/** Breaks B3: counts UTF-16 code units (String.length), not UTF-8 bytes. */
export default defineMode({
  name: "B3-utf16-length",
  defect: "computes a full frame's token_cost as ceil(content.length / 4), which undercounts Japanese and emoji",
  expectFail: ["B3"],
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      return { ...f, token_cost: Math.ceil((f.content as string).length / 4) };
    },
  }),
});
