import { declaredName } from "../fixtures/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: the length prefix is the UTF-8 byte length, never String.length. */
export default defineMode({
  name: "F7-utf16-length",
  defect: "counts enc_str lengths in UTF-16 code units (String.length), not UTF-8 bytes",
  expectFail: ["F7"],
  apply: () => ({
    commit(frame) {
      return commitWith({ utf16Length: true }, declaredName(this), frame);
    },
  }),
});
