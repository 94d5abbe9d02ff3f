import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TerminalProgress } from "./progress.ts";
import type { SuiteArgs } from "./options.ts";
import { makeChalk } from "../report/color.ts";
import { targetOf } from "../report/describe.ts";
import { renderHuman } from "../report/human.ts";
import type { RunReport } from "../verdict/report.ts";
import { exitCode } from "../verdict/exit.ts";
import { runSuite } from "../engine/run.ts";
import type { Target } from "../target/connection.ts";
import type { Transcript } from "../transcript/types.ts";
import { toNdjson } from "../transcript/file.ts";
import { CHECKS } from "../../checks/index.ts";
import { EXCLUDED } from "../../checks/excluded.ts";
import { parseBaseline, writeBaselineText, type Baseline } from "../verdict/baseline.ts";
import { type CheckDef } from "../../checks/kit/check.ts";
import { applyPolicy, type Policy } from "../verdict/policy.ts";
import { parsePatterns, selectChecks } from "../engine/select.ts";
import { parseReportSpecs, render, type ReportSpec as Spec } from "../report/formats.ts";
import { appendBestEffort, err, out, OutputError, positive, readIn, UsageError, writable, writeOutput, writePrivate } from "./io.ts";
import { BASE_SCOPES, EGRESS, NAMESPACED } from "../protocol/scopes.ts";

/** append: add to the file (GitHub's step summary); implicit: added under GitHub Actions, not asked for. */
type ReportSpec = Spec & { append?: boolean; implicit?: boolean };

/** The reports a run writes: --json and --report as given, plus GitHub's defaults under GITHUB_ACTIONS=true. */
function reportSpecs(a: { json: boolean; report?: string[] }): ReportSpec[] {
  let specs: ReportSpec[];
  try {
    specs = parseReportSpecs([...(a.json ? ["json"] : []), ...(a.report ?? [])]);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (process.env.GITHUB_ACTIONS === "true") {
    const toStdout = specs.some((s) => s.file === undefined);
    // Annotations are read from stdout, so they go there only when stdout is not already one pure report.
    if (!toStdout && !specs.some((s) => s.format === "github")) specs.push({ format: "github", implicit: true });
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary && !specs.some((s) => s.format === "markdown")) specs.push({ format: "markdown", file: summary, append: true });
  }
  return specs;
}

/**
 * Write every report; the human one goes to stdout unless a report claims it. Returns the exit code.
 * The transcript the report was scored from, when given, goes to the formats that show it (html).
 */
export function printReport(
  report: RunReport,
  a: { json: boolean; verbose: boolean; quiet?: boolean; report?: string[] },
  transcript?: Transcript,
  more: { transcriptPath?: string; kept?: boolean; failures?: string[] } = {},
): number {
  const specs = reportSpecs(a);
  const ctx = transcript ? { transcript } : {};
  // Files first, so that what is printed last can say whether they were all written.
  const failures = [...(more.failures ?? [])];
  for (const s of specs) {
    if (s.file === undefined) continue;
    if (s.append) appendBestEffort(s.file, render(s.format, report, ctx));
    else
      try {
        writeOutput(s.file, render(s.format, report, ctx), "the report");
      } catch (e) {
        if (!(e instanceof OutputError)) throw e;
        failures.push(e.message);
      }
  }
  // `--report github` with no file is a report to stdout like any other; under Actions the default one goes beside the human report.
  const stdoutSpec = specs.find((s) => s.file === undefined && (s.format !== "github" || !s.implicit));
  const human = {
    verbose: a.verbose,
    quiet: a.quiet ?? false,
    outputFailed: failures.length > 0,
    ...(more.transcriptPath ? { transcriptPath: more.transcriptPath } : {}),
  };
  out(stdoutSpec ? render(stdoutSpec.format, report, ctx) : renderHuman(report, makeChalk(), human));
  for (const s of specs) if (s !== stdoutSpec && s.file === undefined) out(render(s.format, report, ctx));
  // The human report names a transcript kept unasked; when another report holds stdout, stderr does.
  if (stdoutSpec && more.kept && more.transcriptPath) err(`cgp-conform: transcript of this run (the lines the evidence cites): ${more.transcriptPath}\n`);
  for (const f of failures) err(`cgp-conform: ${f}\n`);
  return failures.length > 0 ? exitCode("output-failed") : report.exit_code;
}

/**
 * Keep a run's transcript unasked, best effort: in a directory of its own
 * (readable by this user alone, as the file is), never over an existing file.
 * Returns its path, or why it could not be kept.
 */
function keepTranscript(text: string): { path: string } | { why: string } {
  try {
    const dir = mkdtempSync(join(tmpdir(), "cgp-conform-run-"));
    const path = join(dir, "transcript.ndjson");
    writePrivate(path, text);
    return { path };
  } catch (e) {
    return { why: (e as Error).message };
  }
}

/** A --baseline file, read and held to the registered ids: any defect in it is a usage error naming the file. */
export function readBaseline(file: string, ids: string[], excluded: Readonly<Record<string, string>>): Baseline {
  try {
    return parseBaseline(readIn(file), { ids, excluded });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${file}: ${(e as Error).message}`);
  }
}

/** The outputs a run was asked for, checked before it runs: a run is never made only to find it cannot be written. */
export function checkOutputs(a: {
  transcript?: string;
  "write-baseline"?: string;
  "allow-stale-baseline": boolean;
  baseline?: string;
  json: boolean;
  report?: string[];
}): void {
  if (a.transcript) writable(a.transcript, "--transcript");
  if (a["write-baseline"]) writable(a["write-baseline"], "--write-baseline");
  if (a["allow-stale-baseline"] && a.baseline === undefined) throw new UsageError("--allow-stale-baseline needs --baseline FILE");
  for (const s of reportSpecs(a)) if (s.file && !s.append) writable(s.file, "--report");
}

/**
 * After a run is scored: save (or keep, when it did not pass) its transcript,
 * write a baseline if asked, then print every report. Returns the exit code.
 * `about` names the run in the baseline's comment.
 */
export function finishRun(
  report: RunReport,
  transcriptText: string,
  a: { transcript?: string; "write-baseline"?: string; json: boolean; verbose: boolean; quiet?: boolean; report?: string[] },
  about: string,
  transcript?: Transcript,
): number {
  // An output that cannot be written must not cost the report: say so, print the report, exit 3.
  const failures: string[] = [];
  const save = (file: string, text: string, what: string): boolean => {
    try {
      writeOutput(file, text, what);
      return true;
    } catch (e) {
      if (!(e instanceof OutputError)) throw e;
      failures.push(e.message);
      return false;
    }
  };
  let transcriptPath: string | undefined;
  let kept = false;
  if (a.transcript) {
    if (save(a.transcript, transcriptText, "the transcript")) transcriptPath = a.transcript;
  } else if (!report.conformant || report.summary.warn > 0) {
    // The evidence cites transcript lines: a run that did not pass keeps its transcript even when none was asked for.
    const k = keepTranscript(transcriptText);
    if ("path" in k) [transcriptPath, kept] = [k.path, true];
    else err(`cgp-conform: the transcript could not be kept (${k.why}); --transcript FILE saves it\n`);
  }
  if (a["write-baseline"]) {
    // Not an output failure: a run that could not be made has no failures to list, and exits 3 for that already.
    if (report.could_not_run) err(`cgp-conform: no baseline written to ${a["write-baseline"]}: the run could not be made\n`);
    else save(a["write-baseline"], writeBaselineText(report.results, `${about} at ${report.started_at}`), "the baseline");
  }
  return printReport(report, a, transcript, { ...(transcriptPath ? { transcriptPath } : {}), kept, failures });
}

/** --only / --skip / --baseline, read and checked before anything runs. */
function policyOf(a: SuiteArgs): { checks: readonly CheckDef[]; policy: Policy } {
  let selection;
  try {
    selection = selectChecks(CHECKS, a.only ? parsePatterns(a.only) : undefined, a.skip ? parsePatterns(a.skip) : undefined);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (selection.unmatched.length > 0) {
    throw new UsageError(
      `no check matches ${selection.unmatched.join(", ")}${selection.notes.length ? ` (${selection.notes.join("; ")})` : ""}; cgp-conform list shows them all`,
    );
  }
  if (selection.selected.length === 0) throw new UsageError("--only and --skip leave no check to run");
  const baseline =
    a.baseline === undefined
      ? undefined
      : readBaseline(
          a.baseline,
          CHECKS.map((c) => c.id),
          EXCLUDED,
        );
  return {
    checks: selection.selected,
    policy: gatingPolicy(a, baseline),
  };
}

/** The gating policy a run's flags ask for (--strict, --baseline, --allow-stale-baseline; --only and --skip for the record). */
export function gatingPolicy(
  a: { strict: boolean; "allow-stale-baseline": boolean; only?: string[]; skip?: string[] },
  baseline: Baseline | undefined,
): Policy {
  return {
    strict: a.strict,
    ...(baseline ? { baseline, allowStale: a["allow-stale-baseline"] } : {}),
    ...(a.only ? { only: a.only } : {}),
    ...(a.skip ? { skip: a.skip } : {}),
  };
}

/** A --consent value is a scope (base or vendor:name), "egress", or "all". */
function checkConsent(values: string[] | undefined): void {
  for (const v of values ?? []) {
    if (v === "all" || v === EGRESS || BASE_SCOPES.includes(v) || NAMESPACED.test(v)) continue;
    throw new UsageError(`--consent ${JSON.stringify(v)}: give an egress scope (${BASE_SCOPES.join(", ")}, or vendor:name), "egress", or "all"`);
  }
}

/** Run the suite against a target and report: the body of stdio, http and reference. */
export async function suite(target: Target, a: SuiteArgs): Promise<number> {
  const { checks, policy } = policyOf(a);
  checkConsent(a.consent);
  checkOutputs(a);
  // On a terminal, and only there, a line on stderr says what the run is doing.
  const progress = process.stderr.isTTY && !a.json && !a.quiet ? new TerminalProgress() : undefined;
  const { transcript, report: scored } = await runSuite(target, {
    checks,
    timeoutMs: positive("timeout", a.timeout),
    startupTimeoutMs: positive("startup-timeout", a["startup-timeout"]),
    jobs: positive("jobs", a.jobs),
    deadlineMs: positive("deadline", a.deadline),
    maxLineBytes: positive("max-line-bytes", a["max-line-bytes"]),
    trustRoots: a["trust-root"]?.map((r) => resolve(r)),
    grants: a.consent ?? [],
    depth: a.depth,
    ...(progress ? { progress } : {}),
  }).finally(() => progress?.stop());
  const report = applyPolicy(scored, policy);
  return finishRun(report, toNdjson(transcript), a, `a run against ${targetOf(report.target)}`, transcript);
}
