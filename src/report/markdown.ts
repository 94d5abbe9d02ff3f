import type { RunReport } from "../verdict/report.ts";
import { policyOf, protocolOf, targetLine } from "./describe.ts";
import { type CheckResult, type EvidenceResult, type Status } from "../verdict/status.ts";
import { verdictWords } from "./verdict-words.ts";
import { tally, levelTag } from "../verdict/words.ts";

const ICON = { "COULD NOT RUN": "⛔", CONFORMANT: "✅", "NOT CONFORMANT": "❌" } as const;

/**
 * A GitHub-flavoured Markdown summary, for a PR comment or $GITHUB_STEP_SUMMARY:
 * verdict and tallies, one table row per check, then details of each fail,
 * warn and info. Capped at MARKDOWN_MAX_BYTES: a PR comment holds at most
 * 65,536 characters, so the cap leaves room for whatever a workflow wraps
 * around it. What does not fit is cut, and the output says so.
 */
export const MARKDOWN_MAX_BYTES = 60 * 1024;

/** Longest table cell, and longest field of a finding in the details, in characters. */
const CELL_MAX = 200;
const FIELD_MAX = 1000;
/** Findings shown per check in the details. */
const FINDINGS_MAX = 10;

const MARK: Record<Status, string> = {
  pass: "✅ pass",
  fail: "❌ fail",
  unobserved: "❔ not observed",
  warn: "⚠️ warn",
  info: "ℹ️ info",
  skip: "⏭️ skip",
};

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max).join("")}… (${chars.length - max} more characters cut)`;
}

/**
 * Provider text as inert inline Markdown: HTML-ish characters become entities,
 * Markdown punctuation is backslash-escaped, control characters become visible
 * `\uXXXX`, and line breaks become `<br>` (the only markup this adds).
 */
function inline(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF\uFFFE\uFFFF]/gu, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]{}|~#!@])/g, "\\$1")
    .replace(/\r\n|[\r\n\u2028\u2029]/g, "<br>");
}

function anchorOf(id: string): string {
  return `cgp-${id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

function verdictOf(r: RunReport): { icon: string; text: string } {
  const text = verdictWords(r);
  return { icon: ICON[text], text };
}

function findings(r: CheckResult): EvidenceResult[] {
  return r.evidence.filter((e) => e.status !== "pass");
}

function hasDetails(r: CheckResult): boolean {
  return r.status === "fail" || r.status === "unobserved" || r.status === "warn" || r.status === "info";
}

function firstLine(r: CheckResult): string {
  if (r.status === "pass") return "";
  if (r.status === "skip") return inline(cut(r.reason ?? "skipped", CELL_MAX));
  const all = findings(r);
  const first = all.find((e) => e.status === r.status) ?? all[0];
  if (!first) return "";
  const line = `${first.untestable ? "not observed: " : ""}${first.message.split(/\r\n|[\r\n]/)[0] ?? ""}`;
  return inline(cut(line, CELL_MAX)) + (all.length > 1 ? ` (+${all.length - 1} more)` : "");
}

/** A check's row; `linked`: its details follow, so its id links to them. */
function row(r: CheckResult, linked = false): string {
  const id = linked ? `[${inline(r.id)}](#${anchorOf(r.id)})` : inline(r.id);
  return `| ${MARK[r.status]} | ${id} | ${inline(cut(r.title, CELL_MAX))} | ${firstLine(r)} |`;
}

function findingLines(e: EvidenceResult): string[] {
  const tag = `**${e.status}**${levelTag(e.level, e.basis) ? ` \\[${levelTag(e.level, e.basis)}\\]` : ""}`;
  const out = [`- ${tag}: ${e.untestable ? "not observed: " : ""}${inline(cut(e.message, FIELD_MAX))}`];
  if (e.expected !== undefined) out.push(`  - expected: ${inline(cut(e.expected, FIELD_MAX))}`);
  if (e.actual !== undefined) out.push(`  - actual: ${inline(cut(e.actual, FIELD_MAX))}`);
  if (e.lines.length > 0) out.push(`  - transcript lines: ${cut(e.lines.join(", "), CELL_MAX)}`);
  return out;
}

function detailsHead(r: CheckResult): string[] {
  const out = ["", `<a id="${anchorOf(r.id)}"></a>`, `#### ${MARK[r.status]} · ${inline(r.id)}: ${inline(cut(r.title, CELL_MAX))}`, ""];
  const requirement = r.requirement;
  if (requirement) out.push(`> ${inline(requirement)}`, "");
  if (r.untestable) out.push("_Untestable: a precondition broke, so the rule could not be observed._", "");
  return out;
}

const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");

/** Lines appended while they fit; room is kept for the closing note. */
class Capped {
  private lines: string[] = [];
  private bytes = 0;
  constructor(private readonly max: number) {}
  fits(block: string[]): boolean {
    return this.bytes + block.reduce((n, l) => n + utf8(l) + 1, 0) <= this.max;
  }
  add(block: string[]): boolean {
    if (!this.fits(block)) return false;
    this.lines.push(...block);
    this.bytes += block.reduce((n, l) => n + utf8(l) + 1, 0);
    return true;
  }
  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

/** Room kept for the truncation note at the end. */
const NOTE_RESERVE = 512;

export function renderMarkdown(r: RunReport): string {
  const s = r.summary;
  const v = verdictOf(r);
  const out = new Capped(MARKDOWN_MAX_BYTES - NOTE_RESERVE);
  const cutNotes: string[] = [];

  out.add([
    `## ${v.icon} cgp-conform: ${v.text}`,
    "",
    `**${tally(s).replace(/: /, ":** ").replace(/, /g, " · ")}`,
    "",
    `cgp-conform ${inline(cut(r.tool.version, CELL_MAX))} · ${inline(cut(protocolOf(r), CELL_MAX))} · ${inline(cut(targetLine(r.target), CELL_MAX))}`,
    ...(policyOf(r) ? ["", `Policy: ${inline(cut(policyOf(r)!, FIELD_MAX))}`] : []),
    ...(r.could_not_run ? ["", `**Could not run:** ${inline(cut(r.could_not_run_reason ?? "the provider could not be started", FIELD_MAX))}`] : []),
    ...(r.consent.needed.length > 0
      ? [
          "",
          `Consent needed: ${inline(cut(r.consent.needed.join(", "), CELL_MAX))} · granted: ${inline(cut(r.consent.granted.join(", ") || "none", CELL_MAX))} · missing: ${inline(cut(r.consent.missing.join(", ") || "none", CELL_MAX))}`,
        ]
      : []),
    "",
  ]);

  // What needs a reader comes first, with its details; the passes and skips are folded below them.
  // A run that could not be made observed nothing: its checks not observed say only that, so they fold with the passes.
  const folds = (c: CheckResult): boolean => c.status === "pass" || c.status === "skip" || (r.could_not_run && c.status === "unobserved");
  const attention = r.results.filter((c) => hasDetails(c) && !folds(c));
  const quiet = r.results.filter(folds);
  const head = ["| Status | Check | Title | Evidence |", "| --- | --- | --- | --- |"];
  let rows = 0;
  if (attention.length > 0 && out.add(head)) {
    for (const c of attention) {
      if (!out.add([row(c, true)])) break;
      rows++;
    }
  }
  if (rows < attention.length) cutNotes.push(`${attention.length - rows} of ${attention.length} rows of checks that did not pass`);

  const detailed = attention;
  if (detailed.length > 0 && rows === attention.length) {
    out.add(["", "### Details"]);
    let complete = 0;
    let partial = false;
    for (const c of detailed) {
      if (!out.add(detailsHead(c))) break;
      const all = findings(c);
      const shown = all.slice(0, FINDINGS_MAX);
      let added = 0;
      while (added < shown.length && out.add(findingLines(shown[added]!))) added++;
      const left = all.length - added;
      if (left > 0) {
        const why = added < shown.length ? "cut to keep this summary small" : "not shown here";
        out.add([`- … and ${left} more findings ${why} (the JSON report has them all)`]);
      }
      if (added < shown.length) {
        partial = true;
        break;
      }
      complete++;
    }
    const omitted = detailed.length - complete - (partial ? 1 : 0);
    if (partial) cutNotes.push(`some findings of ${inline(cut(detailed[complete]!.id, 40))}`);
    if (omitted > 0) cutNotes.push(`the details of ${omitted} of ${detailed.length} checks`);
  } else if (detailed.length > 0) {
    cutNotes.push(`the details of all ${detailed.length} checks`);
  }

  if (quiet.length > 0) {
    const count = (st: string): number => quiet.filter((c) => c.status === st).length;
    const label = [
      count("pass") > 0 ? `✅ ${count("pass")} passed` : "",
      count("skip") > 0 ? `⏭️ ${count("skip")} skipped` : "",
      count("unobserved") > 0 ? `❔ ${count("unobserved")} not observed` : "",
    ]
      .filter(Boolean)
      .join(" · ");
    const close = ["", "</details>"];
    let folded = 0;
    // The fold is opened only with room to close it: its closing tag is always written.
    if (out.fits(["", `<details><summary>${label}</summary>`, "", ...head, ...close])) {
      out.add(["", `<details><summary>${label}</summary>`, "", ...head]);
      for (const c of quiet) {
        if (!out.fits([row(c), ...close])) break;
        out.add([row(c)]);
        folded++;
      }
      out.add(close);
    }
    if (folded < quiet.length) cutNotes.push(`${quiet.length - folded} of ${quiet.length} rows of passing and skipped checks`);
  }

  let text = out.text();
  if (cutNotes.length > 0) {
    text += `\n> [!NOTE]\n> Output truncated to stay under ${MARKDOWN_MAX_BYTES / 1024} KiB: ${cutNotes.join(" and ")} omitted. Run with the JSON report for all of it.\n`;
  }
  return text;
}
