/**
 * Why a line got no reply, in words: the one place a fate (a value the
 * session records, src/transcript/types.ts) becomes a sentence. Grouping,
 * skips and not-observed reasons read the value; findings print this.
 */
import { lastError } from "./crash.ts";
import type { Fate, TranscriptEvent } from "./types.ts";

/** The fate in words; `events` and `at` (the note that records it) let an exit quote the provider's last error on stderr. */
export function fateWords(f: Fate, events: readonly TranscriptEvent[] = [], at?: TranscriptEvent): string {
  switch (f.kind) {
    case "timeout":
      return `no reply within ${f.waited_ms} ms`;
    case "exit": {
      const said = at ? lastError(events, at) : undefined;
      return `the provider exited (${f.signal ? `signal ${f.signal}` : `code ${f.exit_code}`})${said ? `: ${said.quoted}` : ""}`;
    }
    case "eof":
      return "the provider closed its output";
    case "deadline":
      return f.reason ? `the run was ${f.reason}` : "the run's deadline passed";
    case "unreachable":
      return f.error;
    case "http-error":
      return `the provider answered HTTP ${f.status} with no envelope`;
    case "flood":
      return "the provider flooded its output and was stopped";
    case "chased":
      return "no reply: the valid query sent after it was answered";
    case "session-ended":
      return "no reply before the session ended";
  }
}

/** The unanswered note recording the fate of write `seq` of a session, if one was recorded. */
export function fateOf(events: readonly TranscriptEvent[], session: string, seq: number): TranscriptEvent | undefined {
  return events.find((e) => e.dir === "note" && e.note === "unanswered" && e.session === session && e.reply_to === seq);
}

/** How a session ended, as the fate of every line still waiting then: what stalled it, the exit it saw, or its plain end. */
export function endFate(
  stall: { kind: string; why: string } | undefined,
  exited: { code: number | null; signal: string | null } | undefined,
  abortReason: unknown,
): Fate {
  if (stall?.kind === "deadline") return { kind: "deadline", ...(typeof abortReason === "string" ? { reason: abortReason } : {}) };
  if (stall?.kind === "exit" || exited) return { kind: "exit", exit_code: exited?.code ?? null, signal: exited?.signal ?? null };
  if (stall?.kind === "eof") return { kind: "eof" };
  if (stall?.kind === "unreachable") return { kind: "unreachable", error: stall.why };
  if (stall?.kind === "flood") return { kind: "flood" };
  return { kind: "session-ended" };
}
