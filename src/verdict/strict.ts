import { worst, type CheckResult, type EvidenceResult, type Status } from "./status.ts";
/**
 * `--strict`: a SHOULD shortfall is a failure. Every evidence that warned now
 * fails, and each check's status is recomputed from its evidence with the one
 * `worst` the engine uses. MAY shortfalls (info) stay informational, and
 * evidence keeps its `level`, so a report still says which rule was a SHOULD.
 * Pure: the input is not touched.
 */

const harden = (s: Status): Status => (s === "warn" ? "fail" : s);

export function applyStrict(results: CheckResult[]): CheckResult[] {
  return results.map((r) => {
    const evidence: EvidenceResult[] = r.evidence.map((e) => ({ ...e, lines: [...e.lines], status: harden(e.status) }));
    // A skip has no evidence, and `worst` of nothing is pass: keep what the engine decided.
    const status = evidence.length > 0 ? worst(evidence.map((e) => e.status)) : harden(r.status);
    return { ...r, status, evidence };
  });
}
