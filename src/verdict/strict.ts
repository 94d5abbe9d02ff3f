import { worst, type CheckResult, type EvidenceResult, type Level, type Status } from "./status.ts";
/**
 * `--strict`: a SHOULD shortfall is a failure. Every evidence that warned on
 * a SHOULD (its own level, or its check's) now fails, and each check's status
 * is recomputed from its evidence with the one `worst` the engine uses. A
 * warning on an outcome the spec states with no keyword (level NONE) stays a
 * warning, and MAY shortfalls (info) stay informational; evidence keeps its
 * `level`, so a report still says which rule was a SHOULD.
 * Pure: the input is not touched.
 */

const harden = (s: Status, level: Level): Status => (s === "warn" && level === "SHOULD" ? "fail" : s);

export function applyStrict(results: CheckResult[]): CheckResult[] {
  return results.map((r) => {
    const evidence: EvidenceResult[] = r.evidence.map((e) => ({ ...e, lines: [...e.lines], status: harden(e.status, e.level ?? r.level) }));
    // A skip has no evidence, and `worst` of nothing is pass: keep what the engine decided.
    const status = evidence.length > 0 ? worst(evidence.map((e) => e.status)) : harden(r.status, r.level);
    return { ...r, status, evidence };
  });
}
