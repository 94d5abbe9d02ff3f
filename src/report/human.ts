import type { ChalkInstance } from "chalk";
import { renderBaselineSummary } from "../verdict/baseline.ts";
import { targetOf } from "./describe.ts";
import type { RunReport } from "../verdict/report.ts";
import { type CheckResult, type EvidenceResult, type Status } from "../verdict/status.ts";
import { verdictWords } from "../verdict/exit.ts";

const LABEL: Record<Status, string> = { pass: "PASS", fail: "FAIL", warn: "WARN", info: "INFO", skip: "SKIP" };

function paint(c: ChalkInstance, s: Status, text: string): string {
  switch (s) {
    case "pass":
      return c.green(text);
    case "fail":
      return c.red.bold(text);
    case "warn":
      return c.yellow(text);
    case "info":
      return c.cyan(text);
    case "skip":
      return c.dim(text);
  }
}

function evidenceLines(c: ChalkInstance, e: EvidenceResult): string[] {
  const mark = e.status === "pass" ? "✓" : e.status === "warn" ? "!" : "✗";
  const out = [
    `      ${paint(c, e.status, mark)} ${e.untestable ? c.bold("untestable: ") : ""}${e.level && e.level !== "MUST" ? `[${e.level}] ` : ""}${e.message}`,
  ];
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

function checkLines(c: ChalkInstance, r: CheckResult, verbose: boolean): string[] {
  const head = `  ${paint(c, r.status, LABEL[r.status])}  ${c.bold(r.id.padEnd(11))} ${r.title}`;
  if (r.status === "skip") return [head, c.dim(`      skipped: ${r.reason}`)];
  const relevant = verbose ? r.evidence : r.evidence.filter((e) => e.status !== "pass");
  const shown = verbose ? relevant : relevant.slice(0, SHOWN);
  const more = relevant.length - shown.length;
  return [head, ...shown.flatMap((e) => evidenceLines(c, e)), ...(more > 0 ? [c.dim(`      … and ${more} more (--verbose or --json shows them all)`)] : [])];
}

export function renderHuman(report: RunReport, c: ChalkInstance, verbose = false): string {
  const s = report.summary;
  const out = [
    c.bold(`cgp-conform ${report.tool.version}`) + c.dim(` · host ${report.host_version} · ${report.target.kind}: ${targetOf(report.target)}`),
    "",
    ...report.results.flatMap((r) => checkLines(c, r, verbose)),
    "",
    `${s.total} checks: ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.info} info, ${s.skip} skip` +
      (report.exploration ? c.dim(` · ${report.exploration.exchanges} lines sent (depth ${report.exploration.depth})`) : ""),
    ...(report.policy?.strict ? [c.dim("--strict: SHOULD shortfalls are failures")] : []),
    ...(report.policy?.baseline ? [renderBaselineSummary(report.policy.baseline)] : []),
    report.could_not_run
      ? c.red.bold(`${verdictWords(report)}: ${report.could_not_run_reason}`)
      : (report.conformant ? c.green.bold : c.red.bold)(verdictWords(report)),
  ];
  return out.join("\n") + "\n";
}
