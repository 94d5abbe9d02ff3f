import { defineMode } from "./mode.ts";

/** Breaks F12: the root is "never over a larger candidate set the provider truncated away". */
export default defineMode({
  name: "F12-untruncated-root",
  defect: "signs the root over every candidate it ranked, before budget truncation (and sends no inclusion proofs)",
  expectFail: ["F12"],
  finding: { code: "F12.wrong-root", params: { diagnosis: "other-set" } },
  apply: (honest) => ({
    resultRoot(_frames, candidates) {
      return honest.resultRoot.call(this, candidates, candidates);
    },
    inclusion: () => undefined,
  }),
});
