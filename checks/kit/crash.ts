import { type Evidence } from "./check.ts";
import { findings, type Param } from "./findings.ts";
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

/** How the provider ended: its signal, else its exit code. */
type How = { exit_code: Param; signal: Param };

export function how(h: How): string {
  return h.signal ? `was killed by ${h.signal}` : `exited (code ${h.exit_code})`;
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

/**
 * A stimulus as a finding's param: the envelope type it carried (null for a
 * line holding none), a query's distinctive members (absent when it had no
 * query member), else the line's text or, when not UTF-8, its bytes; where it
 * was sent and why it was chosen.
 */
export interface StimulusAt {
  [k: string]: Param | undefined;
  type: string | null;
  query?: Param;
  noQuery?: boolean;
  text?: string;
  hex?: string;
  probe: string;
  step: string;
  why?: string;
  line: number;
}

export function stimulusAt(e: TranscriptEvent, probe: string): StimulusAt {
  const env = envelopeOf(e);
  const type = env && typeof env.type === "string" ? env.type : null;
  const where = { probe, step: e.step, ...(e.aim ? { why: e.aim.why } : {}), line: e.n };
  if (type === null) return { type, ...(e.line_hex !== undefined ? { hex: e.line_hex } : { text: e.line ?? "" }), ...where };
  if (type !== "query") return { type, ...where };
  return env!.query === undefined ? { type, no_query: true, ...where } : { type, query: distinctive(env!.query) as Param, ...where };
}

/** A stimulus param in words: its type and what sets it apart, the probe, step and why it was chosen, its line. */
export function stimulusWords(p: StimulusAt): string {
  const body = p.type === "query" ? (p.no_query ? " with no query member" : ` ${show(p.query, 100)}`) : "";
  // A line that is not UTF-8 is named by its bytes: its decoding (U+FFFD for each) would not say which.
  const line = p.hex !== undefined ? `the bytes ${p.hex.match(/../g)!.join(" ")}` : `the line ${show(p.text ?? "", 60)}`;
  const what = p.type !== null ? `a ${show(p.type, 40)}${body}` : line;
  return `${what} (probe ${p.probe}, step ${p.step}${p.why !== undefined ? `: ${p.why}` : ""}, line ${p.line})`;
}

/** A stimulus named for a reader. */
export function describeStimulus(e: TranscriptEvent, probe: string): string {
  return stimulusWords(stimulusAt(e, probe));
}

export type Crashed = How & {
  /** The first stimulus it died on, the next few (up to five in all), and how many there were. */
  stimulus: StimulusAt;
  others: StimulusAt[];
  count: number;
  /** The line of stderr that states its error, quoted (null when none did), and its last stderr lines. */
  quoted: string | null;
  stderr: string[];
  /** The error as written, and the envelope type died on when no error was said: with how it ended, the cause. */
  error: string | null;
  died_on: Param;
  /** The rule the crash breaks, as the check quotes it. */
  rule: string;
};

export function crashedWords(p: Crashed): string {
  const said =
    p.quoted !== null
      ? `, saying ${p.quoted} (its stderr ended: ${p.stderr.map((l) => show(l, 160)).join(" / ")})`
      : p.stderr.length > 0
        ? `; its stderr ended: ${p.stderr.map((l) => show(l, 160)).join(" / ")}`
        : " and wrote nothing to stderr";
  const on =
    p.count === 1
      ? `on ${stimulusWords(p.stimulus)}`
      : `on ${p.count} stimuli, each time the same way: ${[p.stimulus, ...p.others].map(stimulusWords).join("; ")}${p.count > 5 ? `; and ${p.count - 5} more` : ""}`;
  return `the provider ${how(p)} ${on}${said}. ${p.rule}; each stimulus it died on was passed over and the rest sent in a fresh session`;
}

/**
 * The words of a crash, for every check that holds one (R1, V2): a table of
 * this kit's own, which such a check spreads into its own. Crashes alike are
 * one finding already (crashFindings), so two of them are two causes: apart
 * by what tells causes apart (the error said, the exit, the type died on).
 */
export const crash = findings({
  crashed: {
    apart: ["error", "exitCode", "signal", "diedOn"],
    says: (p: Crashed) => crashedWords(p),
    expected: () => "an answer (frames, or an error such as bad_request), the provider alive",
    actual: (p: How) => `the provider ${how(p)}`,
  },
});

/**
 * One finding per cause: crashes with the same last error on stderr (and the
 * same exit) are one defect hit by several stimuli, listed in the one finding.
 */
export function crashFindings(
  crashes: readonly Crash[],
  rule: string,
  say: (p: Crashed, at: { lines: number[] }) => Evidence = (p, at) => crash.say("crashed", p, at),
): Evidence[] {
  const groups = new Map<string, Crash[]>();
  for (const c of crashes) groups.set(signature(c), [...(groups.get(signature(c)) ?? []), c]);
  return [...groups.values()].map((g) => {
    const first = g[0]!;
    const e = say(
      {
        exit_code: first.end.exitCode as Param,
        signal: first.end.signal as Param,
        stimulus: stimulusAt(first.stimulus, first.probe),
        others: g.slice(1, 5).map((c) => stimulusAt(c.stimulus, c.probe)),
        count: g.length,
        quoted: first.quoted ?? null,
        stderr: first.stderr,
        error: first.error ?? null,
        died_on: (first.error === undefined ? (envelopeOf(first.stimulus)?.type ?? null) : null) as Param,
        rule,
      },
      { lines: [...new Set(g.flatMap((c) => [c.stimulus.n, c.end.n, ...c.stderrLines]))].sort((a, b) => a - b) },
    );
    return g.length > 1 ? { ...e, occurrences: g.length } : e;
  });
}
