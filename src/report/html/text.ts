/**
 * Text as the page carries it: escaped, made visible, cut to a byte cap, counted.
 * Shared by the evidence and the transcript, which cut their lines the same way.
 */

/** Most of one transcript line, or one evidence field, embedded: its first 4 KiB (UTF-8). */
export const LINE_MAX_BYTES = 4096;

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
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

export const utf8 = (s: string): number => Buffer.byteLength(s, "utf8");

/** 12345 → "12,345". */
export const count = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export const plural = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

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
export function cutNote(cut: number): string {
  return cut > 0 ? `<span class="cut">… ${plural(cut, "more byte")} cut</span>` : "";
}

/** Preformatted provider text, cut to LINE_MAX_BYTES. */
export function pre(s: string, cls = ""): string {
  const { text, cut } = cutBytes(s, LINE_MAX_BYTES);
  return `<pre${cls ? ` class="${cls}"` : ""}>${escapeText(text)}${cutNote(cut)}</pre>`;
}

/** A check's element id: `check-` and the id, with anything an id or a URL fragment could trip on replaced. */
export function checkAnchor(id: string): string {
  return `check-${id.replace(/[^A-Za-z0-9_.-]/g, "-")}`;
}
