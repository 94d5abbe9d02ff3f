import type { Transcript, TranscriptEvent } from "../../transcript/types.ts";
import { escapedBytes, fromHex } from "../../transcript/bytes.ts";
import { checkAnchor, count, cutBytes, cutNote, escapeAttr, escapeText, LINE_MAX_BYTES, plural, utf8 } from "./text.ts";

/**
 * The transcript's lines, numbered and anchored (`id="L12"`), so every line a
 * finding cites is a link to it. Each line is cut to LINE_MAX_BYTES, and at
 * most TRANSCRIPT_MAX_LINES lines and TRANSCRIPT_MAX_BYTES of them are
 * embedded: cited lines first, then their neighbours, then the rest in order.
 * Whatever is left out is said where it was.
 */

/** Most transcript lines embedded. */
export const TRANSCRIPT_MAX_LINES = 2000;
/** Most bytes of transcript rows embedded. */
export const TRANSCRIPT_MAX_BYTES = 2 * 1024 * 1024;
/** Lines either side of a cited line embedded before the rest, for context. */
const NEIGHBOURS = 2;

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
export class Lines {
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

export interface Embedded {
  rows: Map<number, string>;
  total: number;
  /** Cited lines left out because cited lines alone spent the caps. */
  citedLeftOut: number;
}

/** Choose the rows to embed: cited lines in page order, then their neighbours, then the rest in order, while the caps allow. */
export function embed(lines: Lines, cited: Map<number, string[]>): Embedded {
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
export function transcriptHtml(lines: Lines | undefined, e: Embedded | undefined): string {
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
