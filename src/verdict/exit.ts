import type { BaselineJudgement } from "./baseline.ts";
import { counted } from "./words.ts";
import type { RunReport } from "./report.ts";

/**
 * Exit codes are a contract, and this table is the only place an outcome
 * becomes one: 0 conformant, 1 not conformant, 2 usage error, 3 could not run.
 */
export const EXIT_CODES = {
  /** A run: no check failed (or, with a baseline, none the baseline does not list). */
  conformant: 0,
  /** A run: a check failed (or, with a baseline, one the baseline does not list). */
  "not-conformant": 1,
  /** A run: the provider could not be started or reached, or needed consent the run was not given. */
  "could-not-run": 3,
  /** selftest: every mode was caught by exactly its checks, and the honest provider was clean. */
  "selftest-exact": 0,
  /** selftest: a mode was missed or caught by another check, or the honest provider was not clean. */
  "selftest-inexact": 1,
  /** validate, attest verify: everything read was valid. */
  valid: 0,
  /** validate, attest verify: something read was invalid (or, for attest verify, there was nothing to verify). */
  invalid: 1,
  /** list, explain, fixture, --help, --version. */
  done: 0,
  /** Unknown command or option, a bad value, an unreadable input or unwritable output. */
  "usage-error": 2,
  /** Refused before any byte was sent: plain http:// to a host that is not loopback (C7). */
  "refused-target": 3,
  /** cgp-conform itself failed. */
  "internal-error": 3,
  /** A run whose report was printed, but an output it was asked for (a report or transcript file) could not be written. */
  "output-failed": 3,
} as const satisfies Record<string, 0 | 1 | 2 | 3>;

/** What each exit code means, for --help and the README: one line per code. */
export const EXIT_MEANINGS: ReadonlyArray<readonly [number, string]> = [
  [0, "conformant (with --baseline: only the listed checks failed); selftest exact; valid"],
  [1, "not conformant (with --baseline: an unlisted failure, or a listed check that passes); selftest inexact; invalid"],
  [2, "usage error: an unknown command or option, a bad value, an unreadable input or unwritable output"],
  [3, "could not run: the provider could not be started or reached, needed consent, or the run was cut short; an internal error"],
];

export type Outcome = keyof typeof EXIT_CODES;
export type ExitCode = (typeof EXIT_CODES)[Outcome];

export function exitCode(o: Outcome): ExitCode {
  return EXIT_CODES[o];
}

/** A run's outcome. With a baseline, the run is green when only the expected checks fail (or fewer). */
export function runOutcome(r: RunReport): "conformant" | "not-conformant" | "could-not-run" {
  if (r.could_not_run) return "could-not-run";
  if (r.policy?.baseline) return r.policy.baseline.ok ? "conformant" : "not-conformant";
  return r.conformant ? "conformant" : "not-conformant";
}

/** Why the baseline makes the run red, in a few words; undefined when it is green. */
export function baselineRed(j: BaselineJudgement): string | undefined {
  const n = counted;
  const why = [
    ...(j.unexpected.length > 0 ? [`${n(j.unexpected.length, "failure", "failures")} not in the baseline (${j.unexpected.join(", ")})`] : []),
    ...(j.fixed.length > 0 && !j.allow_stale
      ? [`${n(j.fixed.length, "baselined check passes", "baselined checks pass")} (${j.fixed.join(", ")}): the baseline is stale`]
      : []),
  ];
  return why.length > 0 ? why.join("; ") : undefined;
}

/**
 * The line a run's output ends with: the verdict, the checks that failed, and,
 * with a baseline, what the exit code makes of them, so the verdict and the
 * exit code never seem to disagree.
 */
export function closingLine(r: RunReport, outputFailed?: string): string {
  const words = verdictWords(r);
  // An output asked for that could not be written makes the exit code 3, whatever the verdict: the line says so.
  const exit = (code: number): string => (outputFailed ? ` (exit ${EXIT_CODES["output-failed"]}: ${outputFailed})` : ` (exit ${code})`);
  if (r.could_not_run) return `${words}: ${r.could_not_run_reason ?? "the provider could not be started"}${exit(EXIT_CODES["could-not-run"])}`;
  const failed = r.results.filter((x) => x.status === "fail").map((x) => x.id);
  const unseen = r.results.filter((x) => x.status === "unobserved").map((x) => x.id);
  const b = r.policy?.baseline;
  if (b) {
    const red = baselineRed(b);
    const what =
      failed.length + unseen.length === 0
        ? "no check failed"
        : [...(failed.length > 0 ? [`failed: ${failed.join(", ")}`] : []), ...(unseen.length > 0 ? [`not observed: ${unseen.join(", ")}`] : [])].join("; ");
    return red
      ? `${words} (${what}); baseline red: ${red}${exit(EXIT_CODES["not-conformant"])}`
      : `${words} (${what}); baseline green: ${failed.length + unseen.length === 0 ? "nothing failed" : "every failure is in the baseline"}${exit(EXIT_CODES.conformant)}`;
  }
  const parts = [
    ...(failed.length > 0 ? [`${counted(failed.length, "check")} failed: ${failed.join(", ")}`] : []),
    ...(unseen.length > 0 ? [`${counted(unseen.length, "check")} not observed: ${unseen.join(", ")}${unobservedCause(r)}`] : []),
  ];
  const line = parts.length === 0 ? words : `${words}: ${parts.join("; ")}`;
  return outputFailed ? `${line}${exit(EXIT_CODES["output-failed"])}` : line;
}

/** Why the first check not observed was not: its first unobserved finding, which names the stimulus and what became of it. */
function unobservedCause(r: RunReport): string {
  const first = r.results.find((x) => x.status === "unobserved")?.evidence.find((e) => e.status === "unobserved");
  if (!first) return "";
  const text = first.message.length > 240 ? `${first.message.slice(0, 240)}…` : first.message;
  return ` (${text})`;
}

/** The verdict in the one wording every renderer uses. */
export function verdictWords(r: RunReport): "COULD NOT RUN" | "CONFORMANT" | "NOT CONFORMANT" {
  return r.could_not_run ? "COULD NOT RUN" : r.conformant ? "CONFORMANT" : "NOT CONFORMANT";
}
