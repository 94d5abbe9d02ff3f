import { defineMode } from "./mode.ts";

/** Breaks V2 (the rubber-stamp witness): answers valid whatever it is asked. */
export default defineMode({
  name: "V2-rubber-stamp",
  defect: "answers valid to every identity, changed or never served",
  expectFail: ["V2"],
  finding: /verify of an identity it never served answered "valid"|whose digest differs by one hex digit from what it served answered "valid"/,
  apply: (honest) => ({
    verdict(identity) {
      const { frame } = honest.verdict.call(this, identity);
      return { frame, status: "valid" };
    },
  }),
});
