/**
 * What a provider's end says, read off a session's record: the stimulus to
 * blame for it, and the line of its stderr that states its error. Pure, and
 * shared by the engine (which passes over the stimulus in a fresh session)
 * and the checks (which name it), so both blame the same line.
 */
import { CHASE_PREFIX, HANDSHAKE_STEP } from "../protocol/probes.ts";
import type { TranscriptEvent } from "./types.ts";

type Recorded = Pick<TranscriptEvent, "dir" | "step" | "session"> & Partial<Pick<TranscriptEvent, "text" | "n">>;

/**
 * The line sent last before `end` (an index into `events`, one session's, in
 * order), not the handshake: the one the provider was reading when it died or
 * wedged. A valid query chasing a stimulus is blamed only when the stimulus
 * before it was answered: then the provider got past the stimulus, and it was
 * the query it could not take.
 */
export function culpritIn<E extends Recorded>(events: readonly E[], end = events.length): E | undefined {
  const sends: number[] = [];
  for (let i = 0; i < end; i++) if (events[i]!.dir === "send" && events[i]!.step !== HANDSHAKE_STEP) sends.push(i);
  const last = sends.at(-1);
  if (last === undefined) return undefined;
  if (!events[last]!.step.startsWith(CHASE_PREFIX)) return events[last];
  const stimulus = sends.at(-2);
  if (stimulus === undefined || events[stimulus]!.step.startsWith(CHASE_PREFIX)) return events[last];
  const answered = events.slice(stimulus + 1, end).some((e) => e.dir === "recv");
  return answered ? events[last] : events[stimulus];
}

/** A stderr line that states an error: a traceback's last line, a panic, an uncaught error's message. */
const ERROR_LINE = /\b\w*(?:Error|Exception)\b|\berror\b|panic|fatal|abort|segmentation fault|traceback/i;

/**
 * What a session last said on stderr before an event, for a finding: its
 * stderr up to then, read whole (a traceback written in pieces is one text),
 * and among its last lines the last that states an error, else the last that
 * is not a stack frame. `line` is as written; `quoted`, cut and quoted.
 */
export function lastError(events: readonly Recorded[], before: Recorded & { n: number }): { line: string; quoted: string; n: number } | undefined {
  const chunks = events.filter(
    (e): e is typeof e & { text: string; n: number } =>
      e.dir === "stderr" && e.session === before.session && (e.n ?? 0) <= before.n && typeof e.text === "string",
  );
  if (chunks.length === 0) return undefined;
  // Each line remembers the chunk it ended in: the event a finding cites.
  const lines: Array<{ line: string; n: number }> = [];
  let pending = "";
  for (const c of chunks) {
    const parts = (pending + c.text).replace(/\r\n/g, "\n").split("\n");
    pending = parts.pop() ?? "";
    for (const p of parts) lines.push({ line: p, n: c.n });
  }
  if (pending !== "") lines.push({ line: pending, n: chunks.at(-1)!.n });
  const tail = lines
    .map((l) => ({ ...l, line: l.line.trimEnd() }))
    .filter((l) => l.line !== "" && l.line !== "[stderr capped]")
    .slice(-12)
    .reverse();
  const pick = tail.find((l) => ERROR_LINE.test(l.line) && !/^\s/.test(l.line)) ?? tail.find((l) => !/^\s/.test(l.line)) ?? tail[0];
  if (!pick) return undefined;
  const cut = pick.line.length > 160 ? `${pick.line.slice(0, 160)}…` : pick.line;
  return { line: pick.line, quoted: JSON.stringify(cut), n: pick.n };
}
