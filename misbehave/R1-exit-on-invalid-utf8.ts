import { defineMode } from "./mode.ts";

/**
 * Breaks R1: "A provider MUST NOT crash on a malformed line". Its line reader
 * decodes strictly, and a line that is not UTF-8 (FF FE) is an error that
 * ends the read loop and the process, as Rust's BufRead::lines() does in
 * the protocol's own providers: the next query is never answered.
 */
export default defineMode({
  name: "R1-exit-on-invalid-utf8",
  defect: "ends its read loop, and exits, on a line of bytes that are not UTF-8",
  expectFail: ["R1"],
  finding: { code: "R1.crashed", params: { exit_code: 1, count: 1, stimulus: { hex: "fffe", probe: "malformed-bytes", step: "bad-invalid-utf8" } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: () => ({
    decode(bytes) {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    },
  }),
});
