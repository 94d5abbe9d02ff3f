/**
 * A frame's content as a region of a context block: its content opens with
 * one marker and closes with another (quoted-benign, quoted-hostile), so
 * the region from the first to the end of the second is where the host put
 * that content, however it quotes or escapes what lies between. Cutting the
 * regions out leaves the host's own structure (its skeleton), and the text
 * just after a region is how the host ends that frame (its closer). Nothing
 * here assumes a format. Pure, like the checks.
 */
import { markersIn } from "../../src/protocol/host-scenarios.ts";
import type { ServedFrame } from "./served.ts";

/** A served frame whose content opens and closes with a marker of its own. */
export interface Quoted {
  frame: ServedFrame;
  open: string;
  close: string;
}

/** The served frames whose content opens with one marker and closes with another, each once (a host that queried twice was served each twice). */
export function quotedFrames(served: readonly ServedFrame[]): Quoted[] {
  const seen = new Set<string>();
  return served.flatMap((frame) => {
    const content = typeof frame.frame.content === "string" ? frame.frame.content : "";
    const m = markersIn(content);
    if (m.length !== 2 || !content.startsWith(m[0]!) || !content.endsWith(m[1]!) || seen.has(m[0]!)) return [];
    seen.add(m[0]!);
    return [{ frame, open: m[0]!, close: m[1]! }];
  });
}

/** Where a frame's content is in a block: found once, left out, cut short (its closing marker gone), or written more than once. */
export type Placed =
  | { kind: "found"; q: Quoted; start: number; end: number }
  | { kind: "absent"; q: Quoted }
  | { kind: "cut"; q: Quoted; start: number }
  | { kind: "garbled"; q: Quoted; opens: number; closes: number };

function occurrences(text: string, s: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(s); i !== -1 && out.length < 100; i = text.indexOf(s, i + s.length)) out.push(i);
  return out;
}

export function place(text: string, q: Quoted): Placed {
  const a = occurrences(text, q.open);
  const b = occurrences(text, q.close);
  if (a.length === 0 && b.length === 0) return { kind: "absent", q };
  if (a.length === 1 && b.length === 0) return { kind: "cut", q, start: a[0]! };
  if (a.length !== 1 || b.length !== 1 || b[0]! < a[0]!) return { kind: "garbled", q, opens: a.length, closes: b.length };
  return { kind: "found", q, start: a[0]!, end: b[0]! + q.close.length };
}

/** The regions found in a block, in the order it holds them. */
export function regions(placed: readonly Placed[]): Array<Extract<Placed, { kind: "found" }>> {
  return placed.filter((p): p is Extract<Placed, { kind: "found" }> => p.kind === "found").sort((x, y) => x.start - y.start);
}

/**
 * The block with every region cut out (each left as ⟨content⟩) and every
 * served content_digest masked (⟨digest⟩): what the host wrote of its own,
 * beside the content it was given.
 */
export function skeleton(text: string, found: ReturnType<typeof regions>, digests: readonly string[]): string {
  let out = "";
  let at = 0;
  for (const r of found) {
    out += text.slice(at, r.start) + "⟨content⟩";
    at = r.end;
  }
  out += text.slice(at);
  for (const d of [...new Set(digests)].sort((x, y) => y.length - x.length)) {
    out = out.split(d).join("⟨digest⟩");
    const hex = d.replace(/^sha256:/, "");
    if (hex.length >= 16) out = out.split(hex).join("⟨digest⟩");
  }
  return out;
}

/**
 * How the host ends a frame: the text after its region, up to the next
 * region (or the block's end). Where the line the content ends on goes on,
 * what follows on it; else the next line that is not blank, whole. "" when
 * nothing but whitespace follows.
 */
export function closerAfter(text: string, end: number, next: number): string {
  const after = text.slice(end, next);
  const lines = after.split("\n");
  const rest = lines[0]!.trim();
  if (rest !== "") return rest;
  // trimEnd, not /\s+$/: on a host-written line of many spaces that regex backtracks quadratically.
  return (lines.slice(1).find((l) => l.trim() !== "") ?? "").trimEnd();
}

/**
 * Whether what follows a region up to the next one is nothing but the next
 * frame's own opening line (a heading, a tag): then the host ends no frame,
 * it only begins the next, and that line is no closer.
 */
export function onlyNextOpener(text: string, end: number, next: number | undefined): boolean {
  if (next === undefined) return false;
  const between = text.slice(end, next);
  const lines = between.split("\n");
  const last = lines[lines.length - 1]!.trim();
  const nonBlank = lines.map((l) => l.trim()).filter((l) => l !== "");
  // The next frame's opener: the line its content starts on, up to the content, or else the last line before it.
  const opener = last !== "" ? last : (nonBlank[nonBlank.length - 1] ?? "");
  return opener !== "" && nonBlank.length === 1 && nonBlank[0] === opener;
}

const indent = (l: string): number => (/^[ \t]*/.exec(l)?.[0] ?? "").replace(/\t/g, "    ").length;

/**
 * The lines of a region that read as the closer itself: the same text, at
 * no more than three columns' more indentation (four or more make a line
 * code, not a fence, in Markdown; a host may indent to neutralise).
 */
export function closerLines(region: string, closer: string): string[] {
  const want = closer.trim();
  if (want === "") return [];
  return region.split("\n").filter((l) => l.trim() === want && indent(l) <= indent(closer) + 3);
}
