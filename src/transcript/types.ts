/**
 * The NDJSON record of a run: every line sent and received, provider stderr,
 * and what the target observed (timeouts, exit, spawn failure), per probe.
 * Saved with --transcript and re-scored offline by `cgp-conform replay`.
 */
export type Direction = "send" | "recv" | "stderr" | "note" | "file";

export type NoteKind =
  | "timeout" // a read deadline expired with nothing (more) received
  | "eof" // the provider closed its stdout
  | "exit" // the provider process ended
  | "killed" // we killed the process group
  | "spawn-error" // the provider could not be started
  | "connect-error" // the provider could not be reached, or stopped answering (HTTP)
  | "deadline" // the run's global deadline cut the probe short
  | "abandoned" // the probe did not run: its shared session had already stalled
  | "flood" // the provider wrote more than a session records, and was stopped
  | "withheld" // a query was not sent: the provider needs consent the run was not given (C2)
  | "unsent" // a line that never went out (`line`), and why (`reason`): the provider had exited, or the session ended before its turn
  | "files" // provenance-files: what was found and read
  | "http-error" // HTTP: an error status whose body held no envelope
  | "resent" // HTTP: a request reset on a kept-alive connection before any answer, sent again on a fresh one
  | "passed-over" // a stimulus not sent again: it ended an earlier session of the same probes
  | "unanswered" // a line sent (`reply_to`, its seq) that got no reply it expected, and why (`cause`)
  | "canary"; // a fresh session's opening query went unanswered: the group stops there (`cause`)

/** Why a provenance file's bytes are not in the transcript. */
export type FileUnread =
  | "not-local" // not a file: URI that names a local path
  | "missing" // no such file at retrieval time
  | "not-regular" // a directory, device or other non-file
  | "outside-roots" // not under a trusted root, so never read
  | "too-large" // over the per-file or per-run byte cap
  | "remote-provider"; // the provider is not on this machine: its file: URIs name its files, not ours

/**
 * Why a line sent got no reply: a value, put into words in one place
 * (src/transcript/fate.ts). `n` fields name the transcript line that shows it.
 */
export type Fate =
  | { kind: "timeout"; waited_ms: number }
  | { kind: "exit"; exit_code: number | null; signal: string | null }
  | { kind: "eof" }
  | { kind: "deadline"; reason?: string }
  | { kind: "unreachable"; error: string }
  | { kind: "http-error"; status: number }
  | { kind: "flood" }
  /** A line that may go unanswered, left unanswered: the valid query sent after it (write `by`) was answered. */
  | { kind: "chased"; by: number }
  /** With correlation: the session ended, every other line answered or given up, before a reply came. */
  | { kind: "session-ended" };

export interface TranscriptEvent {
  /** Line number of this event in the saved transcript file (header is line 1). */
  n: number;
  probe: string;
  /** The provider process the event belongs to: "shared", or the probe's own name. */
  session: string;
  /** Milliseconds since the probe's session started. */
  t: number;
  dir: Direction;
  /** The scripted step the event belongs to (the last step a probe entered). */
  step: string;
  /** send (and an unsent note): the write's ordinal in its session, from 1. */
  seq?: number;
  /**
   * recv: the seq of the line this reply answers: over HTTP the binding pairs
   * them; over stdio the session does, by id where the provider declared
   * correlation, by order where it did not (src/probe/exchange.ts). With
   * `pairing`, the reply answers nothing and this names the line it is
   * attributed to. note "unanswered" and "resent": the seq of the line.
   */
  reply_to?: number;
  /** recv: how a reply that answers no request relates to what was sent (absent: it answers reply_to). */
  pairing?: "duplicate" | "wrong-type" | "unasked";
  /** send: the reply types that answer the line, and whether a conformant provider must answer it. */
  expect?: { types: string[]; required: boolean };
  /** note "unanswered", "canary": why the line got no reply, as a value (src/transcript/fate.ts puts it in words). */
  cause?: Fate;
  /** send: the rules the stimulus aims at and why it was chosen (derived stimuli). */
  aim?: { rules: string[]; why: string };
  /**
   * send/recv: the line without its newline (cut to a prefix when over the
   * cap). A line sent as bytes that are not UTF-8 holds their decoding, with
   * U+FFFD for each invalid sequence, and `line_hex` its exact bytes.
   */
  line?: string;
  /** send (and an unsent note): the exact bytes of a line that is not UTF-8, in lowercase hex. */
  line_hex?: string;
  /** recv: the line's length in bytes, as received. */
  bytes?: number;
  /** recv: the line exceeded the line cap; `line` holds only a prefix. */
  overLong?: boolean;
  /** recv over HTTP: the response status. */
  status?: number;
  /** stderr: a chunk of the provider's stderr. */
  text?: string;
  note?: NoteKind;
  /** timeout: how long we waited, and for what. */
  waitedMs?: number;
  expecting?: string;
  /** exit: exit status or signal; killed: why. */
  exitCode?: number | null;
  signal?: string | null;
  reason?: string;
  /** file: a file:// provenance URI, the local path it names, and its bytes (base64) or why they were not read. */
  uri?: string;
  path?: string;
  data?: string;
  error?: string;
  /** file: why its bytes were not read, as a kind a check can branch on (`error` says it in words). */
  unread?: FileUnread;
  /**
   * file, read by sample-query before budget-squeeze sends the same query again: the digest (sha256:<hex>) of
   * the bytes read then, in place of the bytes (F5 compares it with the later reading); absent in transcripts
   * from before it was taken.
   */
  sha256?: string;
}

/** The consent decision, as recorded (C1, C2, C4, C6). */
export interface ConsentRecord {
  grants: string[];
  needed: string[];
  why?: string;
  granted: string[];
  missing: string[];
}

export interface TranscriptHeader {
  cgp_conform_transcript: 1;
  tool_version: string;
  host_version: string;
  target: { kind: "stdio"; command: string[]; in_process?: true } | { kind: "http"; url: string };
  timeout_ms: number;
  probes: string[];
  /** Directories whose files provenance may be re-read from (F5). */
  trust_roots: string[];
  /** When the run started (the time consent was granted, and usage reports' snapshot). */
  started_at: string;
  /** Which probes ran in which session (provider process), in order: scoring reads membership from here. */
  sessions?: Record<string, string[]>;
  /** How far derived stimuli explored (--depth); absent in transcripts from before depths. */
  depth?: "quick" | "standard" | "exhaustive";
  /** Set when a signal stopped the run before it finished: the signal's name. */
  interrupted?: string;
  /** How long the run spent with the provider, from the first session's start to the last one's end, in ms. */
  duration_ms?: number;
  /** Provider instances (sessions) the run started, the most alive at once, and the bound it kept to (--jobs). */
  instances?: { started: number; peak: number; jobs: number };
  /** Consent granted for this run (--consent), and what the run decided from the provider's first handshake_ack. */
  consent: { grants: string[] } & Partial<Omit<ConsentRecord, "grants">>;
  /** Whether the run could be made, as the recorder saw it (run-facts.ts): the run budget spent, a provider that never ran. */
  run_facts: RunFacts;
}

/** How the provider never ran, in every session that was started: not started, not reached, or ended before writing a line. */
export type NeverStarted =
  | { how: "spawn-error"; error: string; sessions: number }
  | { how: "connect-error"; error: string; sessions: number }
  | { how: "exit"; exit_code: number | null; signal: string | null; sessions: number };

/** The facts that decide whether a provider run could be made, as its recorder wrote them (run-facts.ts). */
export interface RunFacts {
  /** The run received more than it keeps, across all its sessions, and was stopped: the flood note that says so. */
  budget_spent?: { line: number; reason: string };
  /** The provider never ran in any session. */
  never_started?: NeverStarted;
}

export interface Transcript {
  header: TranscriptHeader;
  events: TranscriptEvent[];
}

/**
 * How a flood note begins when the run's own budget (all sessions together)
 * was spent, rather than one session's line cap: the run then could not be
 * made in full, whoever sent the most.
 */
export const RUN_BUDGET_SPENT = "the run received more than it keeps";
