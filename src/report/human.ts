import type { ChalkInstance } from "chalk";
import { visible } from "../verdict/stderr.ts";
import { protocolOf, targetLine } from "./describe.ts";
import type { RunReport } from "../verdict/report.ts";
import { type CheckResult, type EvidenceResult, type Status } from "../verdict/status.ts";
import { closingLine, renderBaselineSummary } from "./verdict-words.ts";
import { counted, tally, levelTag } from "../verdict/words.ts";

const LABEL: Record<Status, string> = { pass: "PASS", fail: "FAIL", unobserved: "NOT OBSERVED", warn: "WARN", info: "INFO", skip: "SKIP" };

function paint(c: ChalkInstance, s: Status, text: string): string {
  switch (s) {
    case "pass":
      return c.green(text);
    case "fail":
      return c.red.bold(text);
    case "unobserved":
      return c.magenta(text);
    case "warn":
      return c.yellow(text);
    case "info":
      return c.cyan(text);
    case "skip":
      return c.dim(text);
  }
}

/** Each finding's mark: only a failure is a cross. */
const MARKS: Partial<Record<EvidenceResult["status"], string>> = { pass: "✓", warn: "!", unobserved: "?", info: "i", skip: "-", fail: "✗" };

function evidenceLines(c: ChalkInstance, e: EvidenceResult): string[] {
  const mark = MARKS[e.status] ?? "✗";
  // Information is no shortfall: it carries no level tag, which would read as the rule it fell short of.
  const tag = e.status !== "info" && levelTag(e.level, e.basis) ? `[${levelTag(e.level, e.basis)}] ` : "";
  const out = [`      ${paint(c, e.status, mark)} ${e.untestable ? c.bold("not observed: ") : ""}${tag}${e.message}`];
  if (e.expected !== undefined) out.push(`          expected: ${e.expected}`);
  if (e.actual !== undefined) out.push(`          actual:   ${e.actual}`);
  for (const m of e.also ?? []) out.push(c.dim(`          also: ${m}`));
  if (e.lines.length > 0) {
    const more = e.lines.length > 12 ? ` … and ${e.lines.length - 12} more` : "";
    out.push(c.dim(`          transcript lines: ${e.lines.slice(0, 12).join(", ")}${more}`));
  }
  return out;
}

/** Evidence shown per check before the rest is summarised (all of it is in --json). */
const SHOWN = 8;

/** The rule a check enforces, quoted, beside a verdict that is not a pass (--verbose: beside every verdict). */
function ruleLine(c: ChalkInstance, r: CheckResult): string {
  const quote = r.requirement.length > 400 ? `${r.requirement.slice(0, 400)}…` : r.requirement;
  return c.dim(`      rule (${r.id}, ${r.level === "NONE" ? "no keyword" : r.level}): ${visible(quote)}`);
}

function checkLines(c: ChalkInstance, r: CheckResult, verbose: boolean, idWidth = 11, labelWidth = 4): string[] {
  const head = `  ${paint(c, r.status, LABEL[r.status].padEnd(labelWidth))}  ${c.bold(r.id.padEnd(idWidth))} ${r.title}`;
  if (r.status === "skip") return [head, c.dim(`      skipped: ${r.reason}`)];
  const relevant = verbose ? r.evidence : r.evidence.filter((e) => e.status !== "pass");
  const shown = verbose ? relevant : relevant.slice(0, SHOWN);
  const more = relevant.length - shown.length;
  return [
    head,
    ...(verbose || r.status !== "pass" ? [ruleLine(c, r)] : []),
    ...shown.flatMap((e) => evidenceLines(c, e)),
    ...(more > 0 ? [c.dim(`      … and ${more} more (--verbose or --json shows them all)`)] : []),
  ];
}

export interface HumanOptions {
  /** Passing evidence too, and every check of a run that observed nothing. */
  verbose?: boolean;
  /** Only the checks that failed, then the counts and the verdict. */
  quiet?: boolean;
  /** Where this run's transcript is, for the lines the evidence cites. */
  transcriptPath?: string;
  /** An output file asked for could not be written: the run exits 3 whatever its verdict. */
  outputFailed?: boolean;
}

/** A run that could not be made and received nothing: every verdict would say so, so none is listed. */
function observedNothing(r: RunReport): boolean {
  return r.could_not_run && (r.exploration ? r.exploration.received === 0 : r.results.every((x) => x.status === "skip" || x.untestable));
}

/** How many provider instances the run started, and the most alive at once. */
function instances(r: RunReport): string {
  const i = r.instances;
  if (!i || r.target.kind !== "stdio") return "";
  return ` · ${counted(i.started, "provider instance")} (at most ${i.peak} at once)`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A check not observed only because a signal interrupted the run: every finding of it says so. */
function stoppedBySignal(report: RunReport, r: CheckResult): boolean {
  if (!report.interrupted || r.status !== "unobserved") return false;
  const said = `interrupted by ${report.interrupted}`;
  const unseen = r.evidence.filter((e) => !e.ok);
  return unseen.length > 0 && unseen.every((e) => e.message.includes(said));
}

export function renderHuman(report: RunReport, c: ChalkInstance, o: HumanOptions = {}): string {
  const s = report.summary;
  const brief = observedNothing(report) && !o.verbose;
  // One cause, one line: the checks a signal kept from being observed are counted, not listed one by one.
  const cutShort = brief || o.verbose ? [] : report.results.filter((r) => stoppedBySignal(report, r));
  const listed = brief ? [] : report.results.filter((r) => !cutShort.includes(r) && (!o.quiet || r.status === "fail" || r.status === "unobserved"));
  const err = report.provider_stderr;
  const showStderr = err !== undefined && (report.could_not_run || s.fail > 0 || s.warn > 0 || o.verbose);
  const n = counted;
  const out = [
    c.bold(`cgp-conform ${report.tool.version}`) + c.dim(` · ${protocolOf(report)} · ${targetLine(report.target)}`),
    "",
    // Ids padded to the longest listed, at least 11 wide (host:S2-envelope is longer than any provider id).
    // Labels as wide as the widest listed (NOT OBSERVED, when a check is), so the ids stay in one column.
    ...listed.flatMap((r) =>
      checkLines(c, r, o.verbose ?? false, Math.max(11, ...listed.map((x) => x.id.length)), Math.max(4, ...listed.map((x) => LABEL[x.status].length))),
    ),
    ...(brief
      ? [c.dim(`  ${n(s.total, "check")} not made: the ${report.target.kind === "host" ? "host" : "provider"} sent nothing to judge (--verbose lists them)`)]
      : []),
    ...(cutShort.length > 0
      ? [
          c.dim(
            `  ${n(cutShort.length, "check")} not observed: the run was interrupted by ${report.interrupted} before their stimuli were seen through (--verbose lists them)`,
          ),
        ]
      : []),
    ...(listed.length > 0 || brief || cutShort.length > 0 ? [""] : []),
    ...(showStderr
      ? [
          c.bold(
            `provider stderr (${err.total > err.lines.length ? `last ${err.lines.length} of ${n(err.total, "line")}` : n(err.total, "line")}, session ${err.session}${err.sessions > 1 ? `; ${err.sessions} sessions wrote to stderr` : ""}):`,
          ),
          ...err.lines.map((l) => `    ${l}`),
          "",
        ]
      : []),
    // A run that observed nothing has no counts worth reading: the line above and the closing line say it all.
    ...(brief ? [] : [tally(s)]).map(
      (t) =>
        t +
        c.dim(
          `${report.exploration ? ` · ${n(report.exploration.exchanges, "line")} sent (depth ${report.exploration.depth})` : ""}${instances(report)}${report.duration_ms !== undefined ? ` · ${seconds(report.duration_ms)}` : ""}`,
        ),
    ),
    ...(report.policy?.strict ? [c.dim("--strict: SHOULD shortfalls are failures")] : []),
    // A run that could not be made observed too little for the baseline to be judged against: its summary would mislead.
    ...(report.policy?.baseline && report.outcome !== "could-not-run" ? [renderBaselineSummary(report.policy.baseline)] : []),
    ...(o.transcriptPath
      ? [c.dim(`transcript (the lines the evidence cites): ${o.transcriptPath}`)]
      : o.verbose
        ? [c.dim("transcript: not saved (--transcript FILE keeps it)")]
        : []),
    // Coloured by the exit code, which a baseline decides: green exactly when the run exits 0.
    (report.outcome === "conformant" && !o.outputFailed ? c.green.bold : c.red.bold)(
      closingLine(report, o.outputFailed ? "an output asked for could not be written; see below" : undefined),
    ),
  ];
  return out.join("\n") + "\n";
}
