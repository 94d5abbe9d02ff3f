import { judgeBaseline, type Baseline } from "./baseline.ts";
import { isConformant, summarize, type PolicyRecord, type RunReport } from "./report.ts";
import { applyStrict } from "./strict.ts";

export interface Policy {
  /** --strict: a SHOULD shortfall fails. */
  strict: boolean;
  /** --baseline: anchors expected to fail. */
  baseline?: Baseline;
  /** --allow-stale-baseline: a baselined check that passes does not make the run red. */
  allowStale?: boolean;
  /** --only / --skip as given, for the record. */
  only?: string[];
  skip?: string[];
}

/**
 * The user's gating policy over a scored report: --strict turns warnings into
 * failures; --baseline judges the failures against those expected. The
 * conformance verdict itself stays the spec's; the baseline only decides the
 * exit code.
 */
export function applyPolicy(report: RunReport, p: Policy): RunReport {
  if (!p.strict && !p.baseline && !p.only && !p.skip) return report;
  const results = p.strict ? applyStrict(report.results) : report.results;
  const summary = summarize(results);
  const record: PolicyRecord = {
    strict: p.strict,
    ...(p.only ? { only: p.only } : {}),
    ...(p.skip ? { skip: p.skip } : {}),
    ...(p.baseline ? { baseline: { expected_fail: p.baseline.entries.map((e) => e.id), ...judgeBaseline(results, p.baseline, p.allowStale ?? false) } } : {}),
  };
  return { ...report, results, summary, conformant: isConformant(summary, report.could_not_run), policy: record };
}
