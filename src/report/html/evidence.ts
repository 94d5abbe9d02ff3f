import { levelTag } from "../../verdict/words.ts";
import { type CheckResult, type EvidenceResult, type Status } from "../../verdict/status.ts";
import { checkAnchor, cutBytes, escapeAttr, escapeText, plural, pre, utf8 } from "./text.ts";

/**
 * Every check, failures first, with the rule it enforces and its evidence;
 * passing and skipped checks folded. The evidence shown is capped: at most
 * FINDINGS_MAX findings per check, LINKS_MAX cited lines per finding and
 * EVIDENCE_MAX_BYTES over all checks (failures get it first); what is left
 * out is said where it was.
 */

/** Most bytes of evidence shown, over all checks (failures get it first). */
export const EVIDENCE_MAX_BYTES = 1536 * 1024;
/** Findings shown per check, and cited lines listed per finding. */
export const FINDINGS_MAX = 100;
export const LINKS_MAX = 100;

const LABEL: Record<Status, string> = { fail: "FAIL", unobserved: "NOT OBSERVED", warn: "WARN", info: "INFO", skip: "SKIP", pass: "PASS" };
const ORDER: Record<Status, number> = { fail: 0, unobserved: 1, warn: 2, info: 3, skip: 4, pass: 5 };

function badge(s: Status, text = LABEL[s]): string {
  return `<span class="badge s-${s}">${escapeText(text)}</span>`;
}

/** A finding rendered but for its line list, which waits until the transcript rows are chosen. */
interface Finding {
  body: string;
  lines: number[];
  moreLines: number;
}

export interface Shown {
  r: CheckResult;
  /** Findings that are not a pass, then passing observations. */
  findings: Finding[];
  passing: Finding[];
  /** Evidence not shown: over FINDINGS_MAX, or past the evidence budget. */
  omitted: number;
}

function findingBody(e: EvidenceResult): string {
  const level = levelTag(e.level, e.basis) ? ` <span class="level">${escapeText(levelTag(e.level, e.basis)!)}</span>` : "";
  const out = [`<div class="fhead">${badge(e.status)}${level}</div>`, pre(e.message, "msg")];
  const fields: string[] = [];
  if (e.expected !== undefined) fields.push(`<dt>expected</dt><dd>${pre(e.expected)}</dd>`);
  if (e.actual !== undefined) fields.push(`<dt>actual</dt><dd>${pre(e.actual)}</dd>`);
  if (fields.length > 0) out.push(`<dl class="fields">${fields.join("")}</dl>`);
  if (e.occurrences !== undefined && e.occurrences > 1)
    out.push(`<p class="occ">${plural(e.occurrences, "occurrence")} of this finding${e.also?.length ? "; the next:" : ""}</p>`);
  if (e.also?.length) out.push(`<ul class="also">${e.also.map((m) => `<li>${pre(m)}</li>`).join("")}</ul>`);
  return out.join("");
}

/** Every finding of every check, in page order, within the evidence budget. */
export function showChecks(results: CheckResult[]): Shown[] {
  const ordered = results.map((r, i) => ({ r, i })).sort((a, b) => ORDER[a.r.status] - ORDER[b.r.status] || a.i - b.i);
  let budget = EVIDENCE_MAX_BYTES;
  return ordered.map(({ r }) => {
    const evidence = [...r.evidence.filter((e) => e.status !== "pass"), ...r.evidence.filter((e) => e.status === "pass")];
    const shown: Array<{ e: EvidenceResult; f: Finding }> = [];
    for (const e of evidence.slice(0, FINDINGS_MAX)) {
      const body = findingBody(e);
      const size = utf8(body) + Math.min(e.lines.length, LINKS_MAX) * 24;
      if (size > budget) break;
      budget -= size;
      shown.push({ e, f: { body, lines: e.lines.slice(0, LINKS_MAX), moreLines: Math.max(0, e.lines.length - LINKS_MAX) } });
    }
    return {
      r,
      findings: shown.filter((s) => s.e.status !== "pass").map((s) => s.f),
      passing: shown.filter((s) => s.e.status === "pass").map((s) => s.f),
      omitted: evidence.length - shown.length,
    };
  });
}

/** Which lines the page cites, in page order, and by which checks: those are embedded first. */
export function citedLines(shown: Shown[], has: (n: number) => boolean): Map<number, string[]> {
  const cited = new Map<number, string[]>();
  for (const s of shown)
    for (const f of [...s.findings, ...s.passing])
      for (const n of f.lines) {
        if (!has(n)) continue;
        const by = cited.get(n) ?? [];
        if (!by.includes(s.r.id)) by.push(s.r.id);
        cited.set(n, by);
      }
  return cited;
}

function lineList(f: Finding, linked: (n: number) => boolean): string {
  if (f.lines.length === 0) return "";
  const items = f.lines.map((n) => (linked(n) ? `<a href="#L${n}">${n}</a>` : `<span class="nolink">${n}</span>`));
  const more = f.moreLines > 0 ? ` … and ${plural(f.moreLines, "more line")} (the JSON report lists them all)` : "";
  return `<p class="lines">transcript ${f.lines.length + f.moreLines === 1 ? "line" : "lines"}: ${items.join(", ")}${more}</p>`;
}

function findingsHtml(fs: Finding[], linked: (n: number) => boolean): string {
  return `<ol class="findings">${fs.map((f) => `<li class="finding">${f.body}${lineList(f, linked)}</li>`).join("")}</ol>`;
}

function checkHead(r: CheckResult): string {
  return `${badge(r.status)} <span class="cid">${escapeText(r.id)}</span> <span class="title">${escapeText(r.title)}</span> <span class="level">${escapeText(r.level)}</span>`;
}

function checkBody(s: Shown, linked: (n: number) => boolean): string {
  const r = s.r;
  const out: string[] = [];
  out.push(
    r.requirement
      ? `<blockquote class="rule">${escapeText(r.requirement)}</blockquote>`
      : `<p class="none">The report records no rule text for this check.</p>`,
  );
  if (r.status === "unobserved")
    out.push(
      `<p class="untestable-note">Not observed: the provider died, wedged or never answered the stimulus, so the rule could not be seen; this is not a failure of the rule, and the run is not conformant.</p>`,
    );
  if (r.status === "skip") out.push(`<p class="reason">Skipped: ${escapeText(r.reason ?? "the check does not apply")}</p>`);
  if (s.findings.length > 0) out.push(findingsHtml(s.findings, linked));
  if (s.passing.length > 0) {
    const list = findingsHtml(s.passing, linked);
    out.push(r.status === "pass" ? list : `<details class="passing"><summary>${plural(s.passing.length, "passing observation")}</summary>${list}</details>`);
  }
  if (s.omitted > 0) out.push(`<p class="omitted">… and ${plural(s.omitted, "more observation")} not shown here (the JSON report has them all)</p>`);
  if (r.evidence.length === 0 && r.status !== "skip") out.push(`<p class="none">No evidence recorded.</p>`);
  return out.join("");
}

function checkHtml(s: Shown, linked: (n: number) => boolean): string {
  const r = s.r;
  const id = escapeAttr(checkAnchor(r.id));
  if (r.status === "pass" || r.status === "skip") {
    const why = r.status === "skip" ? ` <span class="why">${escapeText(cutBytes(r.reason ?? "", 300).text)}</span>` : "";
    return `<details class="check s-${r.status}" id="${id}"><summary>${checkHead(r)}${why}</summary><div class="body">${checkBody(s, linked)}</div></details>`;
  }
  return `<section class="check s-${r.status}" id="${id}"><h3>${checkHead(r)}</h3><div class="body">${checkBody(s, linked)}</div></section>`;
}

/** The checks in their three groups: findings, skipped (only when there are any), passed. */
export function groupsHtml(shown: Shown[], linked: (n: number) => boolean): string[] {
  const findings = shown.filter((s) => s.r.status === "fail" || s.r.status === "unobserved" || s.r.status === "warn" || s.r.status === "info");
  const skipped = shown.filter((s) => s.r.status === "skip");
  const passed = shown.filter((s) => s.r.status === "pass");
  const group = (title: string, cls: string, list: Shown[], none: string): string =>
    `<section class="${cls}"><h2>${title} <span class="n">(${list.length})</span></h2>${list.length ? list.map((s) => checkHtml(s, linked)).join("") : `<p class="none">${none}</p>`}</section>`;
  return [
    group("Findings", "findings-group", findings, "No check failed, warned or noted anything."),
    skipped.length ? group("Skipped", "skipped-group", skipped, "") : "",
    group("Passed", "passed-group", passed, "No check passed."),
  ];
}
