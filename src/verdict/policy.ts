import { decide, type Policy, type RunFacts } from "./decide.ts";
import type { RunReport } from "./report.ts";

export type { Policy } from "./decide.ts";

/** The facts a scored report was decided on, read back from it. */
export function factsOf(report: RunReport): RunFacts {
  return report.could_not_run ? { couldNotRun: report.could_not_run_reason ?? "the run could not be made" } : {};
}

/**
 * The user's gating policy over a scored report: --strict turns warnings into
 * failures; --baseline judges the failures against those expected. The
 * conformance verdict itself stays the spec's; the baseline only decides the
 * outcome and exit code. The decision is made again, by the one decide().
 */
export function applyPolicy(report: RunReport, p: Policy): RunReport {
  if (!p.strict && !p.baseline && !p.only && !p.skip) return report;
  return { ...report, ...decide(report.results, factsOf(report), p) };
}
