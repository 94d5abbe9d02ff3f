import { defineMode } from "./mode.ts";

/** Breaks V2 (the rubber-stamp witness): answers valid whatever it is asked. */
export default defineMode({
  name: "V2-rubber-stamp",
  defect: "answers valid to every identity, changed or never served",
  expectFail: ["V2"],
  // Valid for what it never served or for a changed digest: either step shows it, so the code alone pins it (valid-for-changed is no other defect).
  finding: "V2.valid-for-changed",
  apply: (honest) => ({
    verdict(identity) {
      const { frame } = honest.verdict.call(this, identity);
      return { frame, status: "valid" };
    },
  }),
});
