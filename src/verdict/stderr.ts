import type { Transcript } from "../transcript/types.ts";

/** The last lines a stdio provider wrote to stderr: what a reader needs beside a crash, an exit or a check that could not be made. */
export interface StderrTail {
  /** The session they come from: the first whose provider ended by itself, else the first that wrote to stderr. */
  session: string;
  /** At most TAIL lines, each cut to WIDTH characters, control characters shown as \u escapes. */
  lines: string[];
  /** How many lines that session wrote in all. */
  total: number;
  /** How many sessions wrote to stderr. */
  sessions: number;
}

export const TAIL = 10;
const WIDTH = 300;

/**
 * Control characters (C0 but tab, DEL, C1) and bidirectional overrides as
 * escapes: a provider's bytes must neither drive the reader's terminal nor
 * reorder what it shows.
 */
export function visible(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is being escaped
  return s.replace(
    /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function stderrTail(t: Transcript): StderrTail | undefined {
  const text = new Map<string, string>();
  const endedByItself = new Set<string>();
  for (const e of t.events) {
    if (e.dir === "stderr" && typeof e.text === "string") text.set(e.session, (text.get(e.session) ?? "") + e.text);
    else if (e.note === "exit" && e.reason === undefined) endedByItself.add(e.session);
  }
  if (text.size === 0) return undefined;
  const session = [...text.keys()].find((s) => endedByItself.has(s)) ?? [...text.keys()][0]!;
  const all = text.get(session)!.replace(/\r\n/g, "\n").split("\n");
  if (all[all.length - 1] === "") all.pop();
  const lines = all.slice(-TAIL).map((l) => visible(l.length > WIDTH ? `${l.slice(0, WIDTH)}…` : l));
  return { session, lines, total: all.length, sessions: text.size };
}
