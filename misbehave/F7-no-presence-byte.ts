import { declaredName } from "../fixtures/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: "enc_opt(None) = 0x00, enc_opt(Some(s)) = 0x01 ‖ enc_str(s)". */
export default defineMode({
  name: "F7-no-presence-byte",
  defect: "omits enc_opt's presence byte, so uri: null and uri: \"\" collide",
  expectFail: ["F7"],
  apply: () => ({
    commit(frame) {
      return commitWith({ noPresenceByte: true }, declaredName(this), frame);
    },
  }),
});
