/**
 * The facts of a provider run that decide whether it could be made, typed
 * and kept in the transcript's header (`run_facts`): the recorder writes them
 * once, from what it recorded, and a report reads them, never the events.
 * Beside them in the header: `interrupted` (a signal stopped the run) and
 * `consent` (what the provider needed and the run was given).
 *
 * A transcript saved before the header held them gets the same facts derived
 * from its events when it is read (file.ts), by the one function here.
 */
import { isObj } from "../protocol/envelope.ts";
import { RUN_BUDGET_SPENT, type NeverStarted, type RunFacts, type TranscriptEvent } from "./types.ts";

export type { NeverStarted, RunFacts } from "./types.ts";

/** The first line of a recorded error: the rest is a stack or a tool's own detail. */
const firstLine = (s: string | undefined): string => (s ?? "").split("\n")[0]!;

function neverStarted(events: readonly TranscriptEvent[]): NeverStarted | undefined {
  const started = new Set<string>();
  const heard = new Set<string>();
  const ends = new Map<string, TranscriptEvent>();
  for (const e of events) {
    if (e.dir === "file" || e.note === "files" || e.note === "abandoned") continue;
    started.add(e.session);
    if (e.dir === "recv" || (e.note === "http-error" && e.status !== undefined)) heard.add(e.session);
    else if ((e.note === "exit" && e.reason === undefined) || e.note === "spawn-error" || e.note === "connect-error")
      if (!ends.has(e.session)) ends.set(e.session, e);
  }
  if (started.size === 0 || heard.size > 0 || [...started].some((s) => !ends.has(s))) return undefined;
  const first = ends.get([...started][0]!)!;
  const sessions = started.size;
  if (first.note === "spawn-error" || first.note === "connect-error") return { how: first.note, error: firstLine(first.reason), sessions };
  return { how: "exit", exit_code: first.exitCode ?? null, signal: first.signal ?? null, sessions };
}

/** The run's facts, from its events as recorded (line numbers assigned). */
export function deriveRunFacts(events: readonly TranscriptEvent[]): RunFacts {
  const spent = events.find((e) => e.note === "flood" && e.reason?.startsWith(RUN_BUDGET_SPENT));
  const never = neverStarted(events);
  return {
    ...(spent ? { budget_spent: { line: spent.n, reason: spent.reason! } } : {}),
    ...(never ? { never_started: never } : {}),
  };
}

/**
 * Read a header's `run_facts` as strictly as an event: each member the shape
 * the recorder writes, or `bad` names what is wrong. Returns the facts typed.
 */
export function checkRunFacts(v: unknown, bad: (why: string) => never): RunFacts {
  if (!isObj(v)) return bad("run_facts must be an object");
  for (const k of Object.keys(v)) if (k !== "budget_spent" && k !== "never_started") bad(`run_facts.${k} is not a fact this tool records`);
  const out: RunFacts = {};
  const only = (x: unknown, name: string, keys: readonly string[]): void => {
    if (isObj(x)) for (const k of Object.keys(x)) if (!keys.includes(k)) bad(`run_facts.${name}.${k} is not a member this tool records`);
  };
  if (v.budget_spent !== undefined) {
    const b = v.budget_spent;
    only(b, "budget_spent", ["line", "reason"]);
    if (!(isObj(b) && Number.isSafeInteger(b.line) && (b.line as number) >= 2 && typeof b.reason === "string" && b.reason.startsWith(RUN_BUDGET_SPENT)))
      bad(`run_facts.budget_spent must be { line, reason }: an event's line (≥ 2), and a reason beginning "${RUN_BUDGET_SPENT}"`);
    out.budget_spent = { line: (b as { line: number }).line, reason: (b as { reason: string }).reason };
  }
  if (v.never_started !== undefined) {
    const s = v.never_started;
    if (!isObj(s) || !(Number.isSafeInteger(s.sessions) && (s.sessions as number) >= 1)) return bad("run_facts.never_started.sessions must be an integer ≥ 1");
    const sessions = s.sessions as number;
    only(s, "never_started", s.how === "exit" ? ["how", "exit_code", "signal", "sessions"] : ["how", "error", "sessions"]);
    if (s.how === "spawn-error" || s.how === "connect-error") {
      if (typeof s.error !== "string") bad(`run_facts.never_started.error must be a string`);
      out.never_started = { how: s.how, error: firstLine(s.error as string), sessions };
    } else if (s.how === "exit") {
      if (!(s.exit_code === null || Number.isSafeInteger(s.exit_code))) bad("run_facts.never_started.exit_code must be an integer or null");
      if (!(s.signal === null || (typeof s.signal === "string" && /^SIG[A-Z0-9]+$/.test(s.signal))))
        bad("run_facts.never_started.signal must be a signal's name, such as SIGKILL, or null");
      out.never_started = { how: "exit", exit_code: s.exit_code as number | null, signal: s.signal as string | null, sessions };
    } else bad("run_facts.never_started.how must be spawn-error, connect-error or exit");
  }
  return out;
}

/**
 * What in the facts the transcript's own events contradict, or undefined. The
 * report reads the facts, not the events, so a header that says less or more
 * than its events (a run that never started said to have started, a budget
 * spent at a line that holds no flood note) is refused, not believed: the
 * facts must be the ones the recorder derives from those events.
 */
export function factsMismatch(facts: RunFacts, events: readonly TranscriptEvent[]): string | undefined {
  const spent = facts.budget_spent;
  if (spent !== undefined) {
    const note = events.find((e) => e.n === spent.line);
    if (note?.note !== "flood") return `run_facts.budget_spent.line ${spent.line} is not a flood note of this transcript`;
    if (note.reason !== spent.reason) return `run_facts.budget_spent.reason is not the reason its note at line ${spent.line} gives`;
  }
  return factsDiffer(facts, deriveRunFacts(events));
}

/** Why facts recorded in a header are not the ones its events bear out (a provider run's or a host run's), or undefined. */
export function factsDiffer(said: object, shown: object): string | undefined {
  const [a, b] = [said, shown].map((f) => JSON.stringify(canonical(f)));
  return a === b ? undefined : `run_facts say ${a}, but the transcript's events show ${b}`;
}

/** Facts with their members in one order, so two records of the same facts compare equal as JSON. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
  );
}
