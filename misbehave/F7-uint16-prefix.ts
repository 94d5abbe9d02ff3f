import { declaredName } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: "enc_str(s) = uint32be(byte_length(utf8(s))) ‖ utf8(s)". */
export default defineMode({
  name: "F7-uint16-prefix",
  defect: "writes enc_str length prefixes as uint16 instead of uint32",
  expectFail: ["F7"],
  // F7's evidence names no encoding rule, so this pins only that ASCII-only frames fail too (F7-utf16-length's
  // cannot); it cannot tell this defect from F7-no-presence-byte.
  finding: { code: "F7.wrong-commitment", params: { frame: "fixture:retry-doc" } },
  apply: () => ({
    commit(frame) {
      return commitWith({ prefixBytes: 2 }, declaredName(this), frame);
    },
  }),
});
