import { declaredName } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: the length prefix is the UTF-8 byte length, never String.length. */
export default defineMode({
  name: "F7-utf16-length",
  defect: "counts enc_str lengths in UTF-16 code units (String.length), not UTF-8 bytes",
  expectFail: ["F7"],
  // The non-ASCII frames, the only ones where UTF-16 units and UTF-8 bytes differ; F7's evidence names no
  // encoding rule, so the other F7 modes (which break every frame) match this too.
  finding: { code: "F7.wrong-commitment", params: { frame: "fixture:再試行" } },
  apply: () => ({
    commit(frame) {
      return commitWith({ utf16Length: true }, declaredName(this), frame);
    },
  }),
});
