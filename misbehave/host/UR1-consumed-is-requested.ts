/**
 * Defect: reports the query's budget as the budget consumed.
 * Breaks UR1: "A host MUST be able to produce a usage report for any query it executed, whose budget_consumed
 * equals the summed token_cost of the served frames it reports."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "UR1-consumed-is-requested",
  defect: "writes each usage report with budget_consumed equal to budget_requested (the query's max_tokens), whatever its served frames cost",
  expectFail: ["host:UR1"],
  finding: { code: "host:UR1.consumed-unsummed", params: { consumed: 4000 } },
  apply: (honest) => ({
    usageReport(rounds, asOf) {
      const report = honest.usageReport.call(this, rounds, asOf);
      return { ...report, budget_consumed: report.budget_requested };
    },
  }),
});
