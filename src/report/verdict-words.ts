/**
 * The words of a run's verdict, for every renderer: decide() (src/verdict/)
 * makes the outcome, the exit code and the reasons; this module says them.
 */
import type { Baseline, BaselineJudgement } from "../verdict/baseline.ts";
import { EXIT_CODES } from "../verdict/exit.ts";
import type { RunReport } from "../verdict/report.ts";
import { counted } from "../verdict/words.ts";

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
  const exit = (): string => (outputFailed ? ` (exit ${EXIT_CODES["output-failed"]}: ${outputFailed})` : ` (exit ${r.exit_code})`);
  const why = r.reasons.find((x) => x.kind === "could-not-run");
  if (why) return `${words}: ${why.why}${exit()}`;
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
      ? `${words} (${what}); baseline red: ${red}${exit()}`
      : `${words} (${what}); baseline green: ${failed.length + unseen.length === 0 ? "nothing failed" : "every failure is in the baseline"}${exit()}`;
  }
  const parts = [
    ...(failed.length > 0 ? [`${counted(failed.length, "check")} failed: ${failed.join(", ")}`] : []),
    ...(unseen.length > 0 ? [`${counted(unseen.length, "check")} not observed: ${unseen.join(", ")}${unobservedCause(r)}`] : []),
  ];
  const line = parts.length === 0 ? words : `${words}: ${parts.join("; ")}`;
  return outputFailed ? `${line}${exit()}` : line;
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

/** Human-readable lines for a judgement; pass the baseline too to show each entry's reason. */
export function renderBaselineSummary(j: BaselineJudgement, b?: Baseline): string {
  const reasons = new Map((b?.entries ?? []).map((e) => [e.id, e.reason]));
  const ids = (xs: string[]): string => xs.map((id) => (reasons.get(id) ? `${id} (${reasons.get(id)})` : id)).join(", ");
  const n = counted;
  const out: string[] = [];
  if (j.unexpected.length > 0) out.push(`${n(j.unexpected.length, "failure is", "failures are")} not in the baseline: ${j.unexpected.join(", ")}`);
  if (j.still_failing.length > 0)
    out.push(`${n(j.still_failing.length, "baselined check fails", "baselined checks fail")} as expected: ${ids(j.still_failing)}`);
  if (j.fixed.length > 0)
    out.push(
      `${n(j.fixed.length, "baselined check no longer fails", "baselined checks no longer fail")}: ${ids(j.fixed)}; remove ${j.fixed.length === 1 ? "it" : "them"} from the baseline${j.allow_stale ? " (--allow-stale-baseline: not a failure)" : ", or pass --allow-stale-baseline"}`,
    );
  if (j.not_failing.length > 0)
    out.push(
      `${n(j.not_failing.length, "baselined check", "baselined checks")} no longer ${j.not_failing.length === 1 ? "fails" : "fail"} but ${j.not_failing.length === 1 ? "does" : "do"} not pass either (warn or info): ${ids(j.not_failing)}`,
    );
  if (j.skipped.length > 0) out.push(`${n(j.skipped.length, "baselined check was", "baselined checks were")} skipped this run: ${ids(j.skipped)}`);
  if (j.not_run.length > 0) out.push(`${n(j.not_run.length, "baselined check was", "baselined checks were")} not selected this run: ${ids(j.not_run)}`);
  return out.map((l) => `baseline: ${l}`).join("\n");
}
