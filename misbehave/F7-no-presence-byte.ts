import { declaredName } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: "enc_opt(None) = 0x00, enc_opt(Some(s)) = 0x01 ‖ enc_str(s)". */
export default defineMode({
  name: "F7-no-presence-byte",
  defect: 'omits enc_opt\'s presence byte, so uri: null and uri: "" collide',
  expectFail: ["F7"],
  // F7's evidence names no encoding rule, so this pins only that ASCII-only frames fail too (F7-utf16-length's
  // cannot); it cannot tell this defect from F7-uint16-prefix.
  finding: { code: "F7.wrong-commitment", params: { frame: "fixture:retry-doc" } },
  apply: () => ({
    commit(frame) {
      return commitWith({ noPresenceByte: true }, declaredName(this), frame);
    },
  }),
});
