import { levelTag } from "../verdict/words.ts";
import type { RunReport } from "../verdict/report.ts";
import type { Transcript, TranscriptEvent } from "../transcript/types.ts";
import { escapedBytes, fromHex } from "../transcript/bytes.ts";
import { policyOf, protocolOf, targetLine, targetOf } from "./describe.ts";
import { type CheckResult, type EvidenceResult, type Status } from "../verdict/status.ts";
import { verdictWords } from "../verdict/exit.ts";

/**
 * One self-contained HTML page of a run, to hand over: the verdict, the
 * target, the tallies, then every check (failures first) with the rule it
 * enforces and its evidence, passing and skipped checks folded; and, when the
 * transcript is given, its lines, numbered and anchored (`id="L12"`), so every
 * line a finding cites is a link to it.
 *
 * Nothing is loaded from anywhere: the CSS is inline, there is no script, and
 * a Content-Security-Policy forbids everything but that inline style. Every
 * string is escaped; the markup is well-formed XML too, so an XML parser can
 * read the page.
 *
 * The page stays a few MB whatever the provider sent: each transcript line is
 * cut to LINE_MAX_BYTES, at most TRANSCRIPT_MAX_LINES lines and
 * TRANSCRIPT_MAX_BYTES of them are embedded (cited lines first, then their
 * neighbours, then the rest in order), and the evidence shown is capped the
 * same way. Whatever is cut or left out is said where it was.
 */

/** Most of one transcript line, or one evidence field, embedded: its first 4 KiB (UTF-8). */
export const LINE_MAX_BYTES = 4096;
/** Most transcript lines embedded. */
export const TRANSCRIPT_MAX_LINES = 2000;
/** Most bytes of transcript rows embedded. */
export const TRANSCRIPT_MAX_BYTES = 2 * 1024 * 1024;
/** Most bytes of evidence shown, over all checks (failures get it first). */
export const EVIDENCE_MAX_BYTES = 1536 * 1024;
/** Findings shown per check, and cited lines listed per finding. */
export const FINDINGS_MAX = 100;
export const LINKS_MAX = 100;
/** Lines either side of a cited line embedded before the rest, for context. */
const NEIGHBOURS = 2;

const LABEL: Record<Status, string> = { fail: "FAIL", unobserved: "NOT OBSERVED", warn: "WARN", info: "INFO", skip: "SKIP", pass: "PASS" };
const ORDER: Record<Status, number> = { fail: 0, unobserved: 1, warn: 2, info: 3, skip: 4, pass: 5 };

/**
 * What a page must not carry raw: C0 controls but tab, LF and CR (XML forbids
 * them), DEL and C1 controls, bidirectional overrides and isolates (they
 * could make evidence read backwards), lone surrogates and U+FFFE/U+FFFF.
 * Each becomes a visible `\uXXXX`, so the evidence still says what was sent.
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF\uFFFE\uFFFF]/gu;

function visible(s: string): string {
  return s.replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Character data. */
export function escapeText(s: string): string {
  return visible(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A double-quoted attribute value. */
function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");

/** 12345 → "12,345". */
const count = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const plural = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

/** Bytes one UTF-16 code point (or lone surrogate) takes in UTF-8. */
function charBytes(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** The first `max` bytes of `s` (UTF-8, never splitting a character), and how many bytes were cut. */
export function cutBytes(s: string, max: number): { text: string; cut: number } {
  if (s.length * 3 <= max) return { text: s, cut: 0 };
  const total = utf8(s);
  if (total <= max) return { text: s, cut: 0 };
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const b = charBytes(ch.codePointAt(0)!);
    if (bytes + b > max) break;
    bytes += b;
    end += ch.length;
  }
  return { text: s.slice(0, end), cut: total - bytes };
}

/** A cut note, as a reader sees it after the text it follows. */
function cutNote(cut: number): string {
  return cut > 0 ? `<span class="cut">… ${plural(cut, "more byte")} cut</span>` : "";
}

/** Preformatted provider text, cut to LINE_MAX_BYTES. */
function pre(s: string, cls = ""): string {
  const { text, cut } = cutBytes(s, LINE_MAX_BYTES);
  return `<pre${cls ? ` class="${cls}"` : ""}>${escapeText(text)}${cutNote(cut)}</pre>`;
}

/** A check's element id: `check-` and the id, with anything an id or a URL fragment could trip on replaced. */
export function checkAnchor(id: string): string {
  return `check-${id.replace(/[^A-Za-z0-9_.-]/g, "-")}`;
}

function badge(s: Status, text = LABEL[s]): string {
  return `<span class="badge s-${s}">${escapeText(text)}</span>`;
}

/** A finding rendered but for its line list, which waits until the transcript rows are chosen. */
interface Finding {
  body: string;
  lines: number[];
  moreLines: number;
}

interface Shown {
  r: CheckResult;
  /** Findings that are not a pass, then passing observations. */
  findings: Finding[];
  passing: Finding[];
  /** Evidence not shown: over FINDINGS_MAX, or past the evidence budget. */
  omitted: number;
}

function findingBody(e: EvidenceResult): string {
  const level = levelTag(e.level) ? ` <span class="level">${escapeText(levelTag(e.level)!)}</span>` : "";
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
function showChecks(results: CheckResult[]): Shown[] {
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

/** One line of the transcript as the page shows it. */
interface Row {
  n: number;
  dir: string;
  probe: string;
  tip: string;
  text: string;
  remark?: string;
}

/** The members every event has, shown in their own columns (or the tooltip) rather than in its text. */
const COLUMNS = new Set(["n", "probe", "session", "t", "dir", "step", "seq", "reply_to", "bytes"]);

function rest(e: TranscriptEvent): string {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (!COLUMNS.has(k) && v !== undefined) o[k] = v;
  return JSON.stringify(o);
}

function eventRow(e: TranscriptEvent): Row {
  const tip = `session ${e.session} · step ${e.step} · ${e.t} ms${e.seq !== undefined ? ` · write ${e.seq}` : ""}${e.reply_to !== undefined ? ` · reply to write ${e.reply_to}` : ""}`;
  const row = { n: e.n, dir: e.dir === "note" && e.note ? `note: ${e.note}` : e.dir, probe: e.probe, tip };
  if ((e.dir === "send" || e.dir === "recv") && typeof e.line === "string") {
    const remarks: string[] = [];
    const raw = e.line_hex === undefined ? undefined : fromHex(e.line_hex);
    if (raw) remarks.push(`not UTF-8: the bytes sent were ${e.line_hex!.match(/../g)!.join(" ")} (each byte that is no UTF-8 shown as \\xHH)`);
    if (e.status !== undefined) remarks.push(`HTTP ${e.status}`);
    if (e.overLong) remarks.push(`longer than the line cap: ${e.bytes !== undefined ? `${plural(e.bytes, "byte")} received, ` : ""}only a prefix recorded`);
    if (e.aim) remarks.push(`aims at ${e.aim.rules.join(", ")}: ${e.aim.why}`);
    // A CR inside a line would read as a line break: it is shown escaped, like the other controls.
    const text = (raw ? escapedBytes(raw) : e.line).replace(/\r/g, "\\u000d");
    return { ...row, text, ...(remarks.length ? { remark: remarks.join(" · ") } : {}) };
  }
  if (e.dir === "stderr" && typeof e.text === "string") return { ...row, text: e.text };
  return { ...row, text: rest(e) };
}

/** The transcript's lines by number: the header is line 1, each event its own `n`. */
class Lines {
  private readonly byN = new Map<number, TranscriptEvent>();
  readonly total: number;
  constructor(private readonly t: Transcript) {
    for (const e of t.events) this.byN.set(e.n, e);
    this.total = 1 + t.events.length;
  }
  has(n: number): boolean {
    return n === 1 || this.byN.has(n);
  }
  row(n: number): Row | undefined {
    if (n === 1) return { n: 1, dir: "header", probe: "", tip: "the transcript header", text: JSON.stringify(this.t.header) };
    const e = this.byN.get(n);
    return e ? eventRow(e) : undefined;
  }
  numbers(): number[] {
    return [1, ...this.t.events.map((e) => e.n)];
  }
}

function rowHtml(row: Row, citedBy: string[] | undefined): string {
  const { text, cut } = cutBytes(row.text, LINE_MAX_BYTES);
  const cites = citedBy?.length
    ? `<div class="cites">cited by ${citedBy.map((id) => `<a href="#${escapeAttr(checkAnchor(id))}">${escapeText(id)}</a>`).join(", ")}</div>`
    : "";
  const dirClass = row.dir.startsWith("note") ? "note" : row.dir;
  return (
    `<tr id="L${row.n}" class="d-${escapeAttr(dirClass)}${citedBy?.length ? " cited" : ""}">` +
    `<td class="n"><a href="#L${row.n}">${row.n}</a></td>` +
    `<td class="probe" title="${escapeAttr(row.tip)}">${escapeText(row.probe)}</td>` +
    `<td class="dir">${escapeText(row.dir)}</td>` +
    `<td class="line"><pre>${escapeText(text)}${cutNote(cut)}</pre>${row.remark ? `<div class="remark">${escapeText(row.remark)}</div>` : ""}${cites}</td>` +
    `</tr>`
  );
}

interface Embedded {
  rows: Map<number, string>;
  total: number;
  /** Cited lines left out because cited lines alone spent the caps. */
  citedLeftOut: number;
}

/** Choose the rows to embed: cited lines in page order, then their neighbours, then the rest in order, while the caps allow. */
function embed(lines: Lines, cited: Map<number, string[]>): Embedded {
  const rows = new Map<number, string>();
  let bytes = 0;
  let citedLeftOut = 0;
  const tryAdd = (n: number): "added" | "full" | "skipped" => {
    if (rows.has(n) || !lines.has(n)) return "skipped";
    if (rows.size >= TRANSCRIPT_MAX_LINES) return "full";
    const html = rowHtml(lines.row(n)!, cited.get(n));
    const size = utf8(html);
    if (bytes + size > TRANSCRIPT_MAX_BYTES) return "full";
    rows.set(n, html);
    bytes += size;
    return "added";
  };
  for (const n of cited.keys()) if (tryAdd(n) === "full") citedLeftOut++;
  context: for (const n of cited.keys()) {
    for (let d = -NEIGHBOURS; d <= NEIGHBOURS; d++) if (d !== 0 && tryAdd(n + d) === "full") break context;
  }
  for (const n of lines.numbers()) if (tryAdd(n) === "full") break;
  return { rows, total: lines.total, citedLeftOut };
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

function metaHtml(r: RunReport): string {
  const items: Array<[string, string]> = [
    ["Target", escapeText(targetLine(r.target))],
    ["Tool", `cgp-conform ${escapeText(r.tool.version)}`],
    ["Protocol", escapeText(protocolOf(r))],
    ["Timeout", `${count(r.timeout_ms)} ms per exchange`],
  ];
  items.push(["Run started", `${escapeText(r.started_at)}${r.duration_ms !== undefined ? `, ${count(r.duration_ms)} ms with the provider` : ""}`]);
  if (r.exploration) items.push(["Exploration", `depth ${escapeText(r.exploration.depth)}, ${plural(r.exploration.exchanges, "line")} sent`]);
  const policy = policyOf(r);
  if (policy) items.push(["Policy", escapeText(policy)]);
  if (r.consent.needed.length > 0) {
    const list = (xs: string[]): string => escapeText(xs.join(", ") || "none");
    items.push(["Consent", `needed: ${list(r.consent.needed)} · granted: ${list(r.consent.granted)} · missing: ${list(r.consent.missing)}`]);
  }
  return `<dl class="meta">${items.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function summaryHtml(r: RunReport): string {
  const s = r.summary;
  const tiles: Array<[string, number, string]> = [
    ["checks", s.total, "total"],
    ["pass", s.pass, "s-pass"],
    ["fail", s.fail, "s-fail"],
    ...(s.unobserved > 0 ? [["not observed", s.unobserved, "s-unobserved"] as [string, number, string]] : []),
    ["warn", s.warn, "s-warn"],
    ["info", s.info, "s-info"],
    ["skip", s.skip, "s-skip"],
  ];
  return `<ul class="summary">${tiles.map(([k, n, cls]) => `<li class="${cls}"><span class="count">${n}</span> <span class="what">${k}</span></li>`).join("")}</ul>`;
}

function transcriptHtml(lines: Lines | undefined, e: Embedded | undefined): string {
  if (!lines || !e)
    return `<section id="transcript"><h2>Transcript</h2><p class="none">The transcript was not given to this report, so cited lines are not linked.</p></section>`;
  const shown = [...e.rows.keys()].sort((a, b) => a - b);
  const leftOut = e.total - shown.length;
  const notes = [
    `${plural(e.total, "line")}${leftOut > 0 ? `, ${count(shown.length)} shown` : ""}. Each line is cut to its first ${count(LINE_MAX_BYTES)} bytes.`,
  ];
  if (leftOut > 0)
    notes.push(`${plural(leftOut, "line")} left out to keep this page small (cited lines and their neighbours come first); the transcript file has them all.`);
  if (e.citedLeftOut > 0) notes.push(`${plural(e.citedLeftOut, "cited line")} did not fit either, and are not linked.`);
  const body: string[] = [];
  let next = 1;
  for (const n of shown) {
    if (n > next) body.push(gapRow(next, n - 1));
    body.push(e.rows.get(n)!);
    next = n + 1;
  }
  if (next <= e.total) body.push(gapRow(next, e.total));
  return (
    `<section id="transcript"><h2>Transcript</h2><p class="tnote">${notes.join(" ")}</p>` +
    `<table class="transcript"><thead><tr><th>#</th><th>probe</th><th>dir</th><th>line</th></tr></thead><tbody>${body.join("")}</tbody></table></section>`
  );
}

function gapRow(from: number, to: number): string {
  const which = from === to ? `line ${from}` : `lines ${from}–${to}`;
  return `<tr class="gap"><td colspan="4">… ${which} left out (${plural(to - from + 1, "line")})</td></tr>`;
}

const VERDICT_CLASS = { CONFORMANT: "v-ok", "NOT CONFORMANT": "v-fail", "COULD NOT RUN": "v-cnr" } as const;

export function renderHtml(r: RunReport, transcript?: Transcript): string {
  const verdict = verdictWords(r);
  const shown = showChecks(r.results);

  // Which lines the page cites, in page order, and by which checks: those are embedded first.
  const lines = transcript ? new Lines(transcript) : undefined;
  const cited = new Map<number, string[]>();
  for (const s of shown)
    for (const f of [...s.findings, ...s.passing])
      for (const n of f.lines) {
        if (!lines?.has(n)) continue;
        const by = cited.get(n) ?? [];
        if (!by.includes(s.r.id)) by.push(s.r.id);
        cited.set(n, by);
      }
  const embedded = lines ? embed(lines, cited) : undefined;
  const linked = (n: number): boolean => embedded?.rows.has(n) ?? false;

  const findings = shown.filter((s) => s.r.status === "fail" || s.r.status === "unobserved" || s.r.status === "warn" || s.r.status === "info");
  const skipped = shown.filter((s) => s.r.status === "skip");
  const passed = shown.filter((s) => s.r.status === "pass");
  const group = (title: string, cls: string, list: Shown[], none: string): string =>
    `<section class="${cls}"><h2>${title} <span class="n">(${list.length})</span></h2>${list.length ? list.map((s) => checkHtml(s, linked)).join("") : `<p class="none">${none}</p>`}</section>`;

  const reason = r.could_not_run ? `<p class="why-not">${escapeText(r.could_not_run_reason ?? "the run could not be made in full")}</p>` : "";
  return (
    [
      "<!DOCTYPE html>",
      `<html lang="en">`,
      "<head>",
      `<meta charset="utf-8"/>`,
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"/>`,
      `<meta name="referrer" content="no-referrer"/>`,
      `<meta name="viewport" content="width=device-width, initial-scale=1"/>`,
      `<title>cgp-conform: ${escapeText(verdict)} · ${escapeText(cutBytes(targetOf(r.target), 200).text)}</title>`,
      `<style>${CSS}</style>`,
      "</head>",
      "<body>",
      `<header class="verdict ${VERDICT_CLASS[verdict]}"><p class="tool">cgp-conform conformance report</p><h1>${escapeText(verdict)}</h1>${reason}</header>`,
      "<main>",
      metaHtml(r),
      summaryHtml(r),
      group("Findings", "findings-group", findings, "No check failed, warned or noted anything."),
      skipped.length ? group("Skipped", "skipped-group", skipped, "") : "",
      group("Passed", "passed-group", passed, "No check passed."),
      transcriptHtml(lines, embedded),
      "</main>",
      "</body>",
      "</html>",
    ].join("\n") + "\n"
  );
}

const CSS = `
:root { --fail: #b3261e; --unobserved: #6f42c1; --warn: #8a5300; --info: #0b5cad; --pass: #1d6f33; --skip: #5f6368; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 0 24px 48px; }
pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { padding: 20px 24px; color: #fff; }
.verdict > * { max-width: 1152px; margin-left: auto; margin-right: auto; }
.verdict h1 { margin-top: 0; margin-bottom: 0; font-size: 32px; letter-spacing: 0.02em; }
.verdict .tool { margin-top: 0; margin-bottom: 4px; opacity: 0.85; font-size: 13px; text-transform: uppercase; letter-spacing: 0.08em; }
.verdict .why-not { margin-top: 8px; margin-bottom: 0; font-size: 16px; overflow-wrap: anywhere; }
.v-ok { background: var(--pass); }
.v-fail { background: var(--fail); }
.v-cnr { background: #6e4c00; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 20px 0; }
.meta dt { color: #59636e; }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.summary { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 0 0 24px; }
.summary li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; min-width: 84px; text-align: center; }
.summary .count { display: block; font-size: 22px; font-weight: 600; }
.summary .what { color: #59636e; font-size: 13px; }
.summary .s-fail .count { color: var(--fail); }
.summary .s-unobserved .count { color: var(--unobserved); }
.summary .s-warn .count { color: var(--warn); }
.summary .s-info .count { color: var(--info); }
.summary .s-pass .count { color: var(--pass); }
.summary .s-skip .count { color: var(--skip); }
h2 { font-size: 20px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h2 .n { color: #59636e; font-weight: normal; }
.check { border: 1px solid var(--line); border-left-width: 5px; border-radius: 6px; margin: 0 0 10px; background: #fff; }
.check.s-fail { border-left-color: var(--fail); }
.check.s-unobserved { border-left-color: var(--unobserved); }
.check.s-warn { border-left-color: var(--warn); }
.check.s-info { border-left-color: var(--info); }
.check.s-pass { border-left-color: var(--pass); }
.check.s-skip { border-left-color: var(--skip); }
.check h3 { margin: 0; padding: 10px 14px; font-size: 16px; background: var(--soft); border-bottom: 1px solid var(--line); }
.check summary { padding: 6px 14px; cursor: pointer; }
.check[open] summary { background: var(--soft); border-bottom: 1px solid var(--line); }
.check .body { padding: 10px 14px; }
.check:target { box-shadow: 0 0 0 3px #f2cc60; }
.cid { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 700; }
.level { display: inline-block; font-size: 11px; font-weight: 600; border: 1px solid currentColor; border-radius: 4px; padding: 0 4px; color: #59636e; vertical-align: 2px; }
.why { color: #59636e; font-size: 13px; }
.badge { display: inline-block; min-width: 44px; text-align: center; font-size: 11px; font-weight: 700; color: #fff; border-radius: 4px; padding: 1px 6px; vertical-align: 2px; text-transform: uppercase; }
.badge.s-fail { background: var(--fail); }
.badge.s-unobserved { background: var(--unobserved); }
.badge.s-warn { background: var(--warn); }
.badge.s-info { background: var(--info); }
.badge.s-pass { background: var(--pass); }
.badge.s-skip { background: var(--skip); }
.rule { margin: 0 0 10px; padding: 6px 12px; border-left: 3px solid var(--line); color: #3d444d; font-style: italic; overflow-wrap: anywhere; }
.findings { margin: 0; padding-left: 22px; }
.finding { margin: 0 0 10px; }
.fhead { margin-bottom: 2px; }
.msg { font-size: 13.5px; }
.fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0; }
.fields dt { color: #59636e; font-size: 13px; }
.fields dd { margin: 0; }
.fields pre, .also pre { background: var(--soft); padding: 1px 6px; border-radius: 4px; }
.occ { margin: 4px 0 2px; color: #59636e; font-size: 13px; }
.also { margin: 0; padding-left: 18px; font-size: 13px; }
.lines { margin: 4px 0 0; font-size: 13px; color: #59636e; }
.lines a { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.nolink { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.untestable-note { color: var(--unobserved); font-weight: 600; }
.reason, .none, .omitted { color: #59636e; }
.cut { color: var(--fail); font-style: italic; white-space: normal; }
.passing summary { color: #59636e; cursor: pointer; font-size: 13px; }
a { color: #0b5cad; }
.tnote { color: #59636e; }
.transcript { border-collapse: collapse; width: 100%; table-layout: fixed; }
.transcript th { text-align: left; font-size: 12px; color: #59636e; border-bottom: 1px solid var(--line); padding: 4px 6px; }
.transcript th:nth-child(1) { width: 56px; }
.transcript th:nth-child(2) { width: 170px; }
.transcript th:nth-child(3) { width: 96px; }
.transcript td { vertical-align: top; padding: 2px 6px; border-bottom: 1px solid #eef1f4; font-size: 13px; }
.transcript td.n { text-align: right; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.transcript td.n a { color: #59636e; text-decoration: none; }
.transcript td.probe { overflow-wrap: anywhere; color: #3d444d; }
.transcript td.dir { color: #59636e; overflow-wrap: anywhere; }
.transcript tr.d-send td.dir { color: #0b5cad; }
.transcript tr.d-recv td.dir { color: #1d6f33; }
.transcript tr.d-stderr td.dir, .transcript tr.d-note td.dir { color: #8a5300; }
.transcript tr.cited td.n { border-left: 3px solid var(--fail); }
.transcript tr:target td { background: #fff5cc; }
.transcript tr.gap td { color: #59636e; font-style: italic; text-align: center; background: var(--soft); }
.remark { color: #59636e; font-size: 12px; }
.cites { font-size: 12px; color: #59636e; }
@media print { .check { break-inside: avoid; } .verdict { print-color-adjust: exact; -webkit-print-color-adjust: exact; } }
`;
