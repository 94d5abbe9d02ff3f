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
