/**
 * A run's outcome, decided here and nowhere else: from the checks' results,
 * the facts of the run (could it be made in full), and the user's gating
 * policy (--strict, --baseline), one decision — outcome, exit code and the
 * reasons for it, as data. Renderers put the reasons in words; the CLI exits
 * with the code the report states.
 */
import { judgeBaseline, type Baseline, type BaselineJudgement } from "./baseline.ts";
import { EXIT_CODES } from "./exit.ts";
import type { CheckResult, Status } from "./status.ts";
import { applyStrict } from "./strict.ts";

/** The user's gating policy. */
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

/** The policy as the report records it, with the baseline's judgement. */
export interface PolicyRecord {
  strict: boolean;
  only?: string[];
  skip?: string[];
  baseline?: BaselineJudgement & { expected_fail: string[] };
}

export interface Summary {
  total: number;
  pass: number;
  fail: number;
  /** Checks whose rule could not be observed (the provider died, wedged, or never acked): not failures, and not conformant either. */
  unobserved: number;
  warn: number;
  info: number;
  skip: number;
}

export type RunOutcome = "conformant" | "not-conformant" | "could-not-run";

/** Why the outcome is what it is, each naming the checks (or the fact) it rests on. */
export type Reason =
  /** The run could not be made in full: the fact that says why. */
  | { kind: "could-not-run"; why: string }
  /** Checks that failed (without a baseline, each makes the run not conformant). */
  | { kind: "failed"; checks: string[] }
  /** Checks whose rule was not observed (gating like failures). */
  | { kind: "not-observed"; checks: string[] }
  /** With a baseline: failures it does not list (red). */
  | { kind: "unexpected"; checks: string[] }
  /** With a baseline: listed checks that now pass (red unless --allow-stale-baseline). */
  | { kind: "stale"; checks: string[]; allowed: boolean }
  /** With a baseline: listed checks that fail, as expected (green). */
  | { kind: "expected"; checks: string[] };

/** What the run's record says of the run itself, beside the checks' results. */
export interface RunFacts {
  /** Why the run could not be made in full, when it could not. */
  couldNotRun?: string;
}

export interface Decided {
  results: CheckResult[];
  summary: Summary;
  /** The spec's verdict: no check failed, every rule observed, the run made in full. A baseline does not change it. */
  conformant: boolean;
  /** What gates: the verdict, or with a baseline, the baseline's judgement of it. */
  outcome: RunOutcome;
  exit_code: 0 | 1 | 3;
  reasons: Reason[];
  policy?: PolicyRecord;
}

export function summarize(results: readonly CheckResult[]): Summary {
  const s: Summary = { total: results.length, pass: 0, fail: 0, unobserved: 0, warn: 0, info: 0, skip: 0 };
  for (const r of results) s[r.status satisfies Status]++;
  return s;
}

const ids = (results: readonly CheckResult[], status: Status): string[] => results.filter((r) => r.status === status).map((r) => r.id);

/** The one decision: results (under --strict, promoted), facts, policy → outcome, exit code, reasons. */
export function decide(scored: CheckResult[], facts: RunFacts, p?: Policy): Decided {
  const results = p?.strict ? applyStrict(scored) : scored;
  const summary = summarize(results);
  const conformant = summary.fail === 0 && summary.unobserved === 0 && facts.couldNotRun === undefined;
  const gated = p !== undefined && (p.strict || p.baseline !== undefined || p.only !== undefined || p.skip !== undefined);
  const judgement = p?.baseline ? judgeBaseline(results, p.baseline, p.allowStale ?? false) : undefined;
  const policy: PolicyRecord | undefined = gated
    ? {
        strict: p.strict,
        ...(p.only ? { only: p.only } : {}),
        ...(p.skip ? { skip: p.skip } : {}),
        ...(p.baseline && judgement ? { baseline: { expected_fail: p.baseline.entries.map((e) => e.id), ...judgement } } : {}),
      }
    : undefined;
  const failed = ids(results, "fail");
  const unseen = ids(results, "unobserved");
  const nonEmpty = (r: Reason): boolean => r.kind === "could-not-run" || r.checks.length > 0;
  let outcome: RunOutcome;
  let reasons: Reason[];
  if (facts.couldNotRun !== undefined) {
    outcome = "could-not-run";
    reasons = [{ kind: "could-not-run", why: facts.couldNotRun }];
  } else if (judgement) {
    outcome = judgement.ok ? "conformant" : "not-conformant";
    reasons = [
      { kind: "unexpected", checks: judgement.unexpected },
      { kind: "stale", checks: judgement.fixed, allowed: judgement.allow_stale },
      { kind: "expected", checks: judgement.still_failing },
    ];
  } else {
    outcome = conformant ? "conformant" : "not-conformant";
    reasons = [
      { kind: "failed", checks: failed },
      { kind: "not-observed", checks: unseen },
    ];
  }
  return { results, summary, conformant, outcome, exit_code: EXIT_CODES[outcome], reasons: reasons.filter(nonEmpty), ...(policy ? { policy } : {}) };
}
