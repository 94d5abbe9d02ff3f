import { declaredName } from "../fixtures/provider.ts";
import { defineMode } from "./mode.ts";
import { commitWith } from "./lib/encodings.ts";

/** Breaks F7: "enc_str(s) = uint32be(byte_length(utf8(s))) ‖ utf8(s)". */
export default defineMode({
  name: "F7-uint16-prefix",
  defect: "writes enc_str length prefixes as uint16 instead of uint32",
  expectFail: ["F7"],
  apply: () => ({
    commit(frame) {
      return commitWith({ prefixBytes: 2 }, declaredName(this), frame);
    },
  }),
});
