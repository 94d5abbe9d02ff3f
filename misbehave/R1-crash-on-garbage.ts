import { defineMode } from "./mode.ts";

/** Breaks R1: "A provider MUST NOT crash on a malformed line or bad request." */
export default defineMode({
  name: "R1-crash-on-garbage",
  defect: "throws (and so exits) on a line that is not a JSON envelope",
  expectFail: ["R1"],
  finding: { code: "R1.crashed", params: { exit_code: 1, stimulus: { text: "this is not json {{", probe: "malformed-input", step: "bad-garbage" } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: () => ({
    onMalformed(line) {
      throw new SyntaxError(`cannot parse ${JSON.stringify(line.slice(0, 40))}`);
    },
  }),
});
