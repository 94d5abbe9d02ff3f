import { defineMode } from "./mode.ts";

/** Breaks V3: "A verdict is one of valid, stale, gone, unknown." */
export default defineMode({
  name: "V3-invented-status",
  defect: 'answers status "outdated" where it means stale',
  expectFail: ["V3"],
  finding: { code: "V3.unknown-status", params: { step: "verify-mutated", status: "outdated" } },
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return v.status === "stale" ? { ...v, status: "outdated" } : v;
    },
  }),
});
