import { type Evidence } from "./check.ts";
import { show } from "./show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { GENEROUS, HANDSHAKE_STEP } from "../../src/protocol/probes.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";
import { culpritIn, lastError } from "../../src/transcript/crash.ts";
import { envelopeOf, type ProbeView } from "../../src/transcript/view.ts";

/** The provider ended by itself while a stimulus was outstanding: what it was sent, how it ended, what it said on stderr. */
export interface Crash {
  /** The stimulus it died on: the last line sent before the exit, not a valid query chasing it. */
  stimulus: TranscriptEvent;
  probe: string;
  /** The exit (or end of output) that shows it. */
  end: TranscriptEvent;
  /** Its last stderr lines before it ended (at most three), and the events that hold them. */
  stderr: string[];
  stderrLines: number[];
  /** The line of it that states the error, as written (what tells one cause from another), and quoted for a reader. */
  error?: string;
  quoted?: string;
}

const STDERR_KEPT = 3;

/** The last few non-empty stderr lines of a session before an event, and the events that hold them. */
function stderrBefore(events: readonly TranscriptEvent[], end: TranscriptEvent): { text: string[]; lines: number[] } {
  const chunks = events.filter((e) => e.dir === "stderr" && e.session === end.session && e.n < end.n && typeof e.text === "string");
  const text = chunks
    .map((e) => e.text!)
    .join("")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l !== "");
  return { text: text.slice(-STDERR_KEPT).map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l)), lines: chunks.slice(-STDERR_KEPT).map((e) => e.n) };
}

/**
 * Every exit of the provider that it was not asked for and cgp-conform did
 * not cause (not killed, not after shutdown: the probes that send one judge
 * it), in every session the views ran in, resumed ones included. An exit
 * during a session's handshake is the handshake's own finding (H1).
 */
export function crashesIn(views: readonly ProbeView[]): Crash[] {
  const out: Crash[] = [];
  for (const v of views) {
    const events = v.recorded;
    for (const end of events) {
      if (end.dir !== "note" || end.note !== "exit" || end.reason !== undefined || end.step === HANDSHAKE_STEP) continue;
      const session = events.filter((e) => e.session === end.session && e.n < end.n);
      const stimulus = culpritIn(session);
      if (!stimulus) continue;
      const err = stderrBefore(events, end);
      const said = lastError(events, end);
      out.push({ stimulus, probe: v.name, end, stderr: err.text, stderrLines: err.lines, ...(said ? { error: said.line, quoted: said.quoted } : {}) });
    }
  }
  return out;
}

/**
 * What a crash looks like for grouping: the stderr line that states its
 * error, digits blanked, and how it exited; with no error said, the type of
 * envelope it died on too, so two silent exits on unlike stimuli stay apart.
 */
export function signature(c: Crash): string {
  const type = c.error === undefined ? envelopeOf(c.stimulus)?.type : undefined;
  // What an error quotes (the line it choked on, the key it missed) and its numbers vary from one stimulus to the next; its words do not.
  const words = (c.error ?? "")
    .replace(/\\"/g, "")
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "…")
    .replace(/\d+/g, "#");
  return JSON.stringify([words, c.end.exitCode ?? null, c.end.signal ?? null, type ?? null]);
}

function how(c: Crash): string {
  return c.end.signal ? `was killed by ${c.end.signal}` : `exited (code ${c.end.exitCode})`;
}

/** A query's members that make it this stimulus: not the probe's goal and text, nor an empty list or the generous budget every probe query starts from. */
function distinctive(q: unknown): Record<string, unknown> | unknown {
  if (!isObj(q)) return q;
  return Object.fromEntries(
    Object.entries(q).filter(
      ([k, v]) => k !== "goal" && k !== "query_text" && !(Array.isArray(v) && v.length === 0) && !(k in GENEROUS && v === GENEROUS[k as keyof typeof GENEROUS]),
    ),
  );
}

/** A stimulus named for a reader: its type and what sets it apart, the probe, step and why it was chosen, its line. */
export function describeStimulus(e: TranscriptEvent, probe: string): string {
  const env = envelopeOf(e);
  const body = env?.type === "query" ? (env.query === undefined ? " with no query member" : ` ${show(distinctive(env.query), 100)}`) : "";
  // A line that is not UTF-8 is named by its bytes: its decoding (U+FFFD for each) would not say which.
  const line = e.line_hex !== undefined ? `the bytes ${e.line_hex.match(/../g)!.join(" ")}` : `the line ${show(e.line ?? "", 60)}`;
  const what = env && typeof env.type === "string" ? `a ${show(env.type, 40)}${body}` : line;
  return `${what} (probe ${probe}, step ${e.step}${e.aim ? `: ${e.aim.why}` : ""}, line ${e.n})`;
}

/**
 * One finding per cause: crashes with the same last error on stderr (and the
 * same exit) are one defect hit by several stimuli, listed in the one finding.
 */
export function crashFindings(crashes: readonly Crash[], rule: string): Evidence[] {
  const groups = new Map<string, Crash[]>();
  for (const c of crashes) groups.set(signature(c), [...(groups.get(signature(c)) ?? []), c]);
  return [...groups.values()].map((g) => {
    const first = g[0]!;
    const said =
      first.quoted !== undefined
        ? `, saying ${first.quoted} (its stderr ended: ${first.stderr.map((l) => show(l, 160)).join(" / ")})`
        : first.stderr.length > 0
          ? `; its stderr ended: ${first.stderr.map((l) => show(l, 160)).join(" / ")}`
          : " and wrote nothing to stderr";
    const on =
      g.length === 1
        ? `on ${describeStimulus(first.stimulus, first.probe)}`
        : `on ${g.length} stimuli, each time the same way: ${g
            .slice(0, 5)
            .map((c) => describeStimulus(c.stimulus, c.probe))
            .join("; ")}${g.length > 5 ? `; and ${g.length - 5} more` : ""}`;
    return {
      ok: false,
      message: `the provider ${how(first)} ${on}${said}. ${rule}; each stimulus it died on was passed over and the rest sent in a fresh session`,
      expected: "an answer (frames, or an error such as bad_request), the provider alive",
      actual: `the provider ${how(first)}`,
      lines: [...new Set(g.flatMap((c) => [c.stimulus.n, c.end.n, ...c.stderrLines]))].sort((a, b) => a - b),
      ...(g.length > 1 ? { occurrences: g.length } : {}),
    };
  });
}
