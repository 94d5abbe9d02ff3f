import type { HeldBytes, LineChunk } from "./lines.ts";

/** What a connection reports: lines in, stderr, end of output, the end of the provider. */
export interface ConnectionEvents {
  /** HTTP: `status` is the response's, `replyTo` the ordinal (from 1) of the write it answers. */
  line(chunk: LineChunk & { status?: number; replyTo?: number }): void;
  stderr(text: string): void;
  eof(): void;
  exit(code: number | null, signal: string | null): void;
  /** HTTP: an error status whose body is no envelope (empty, cut, or not JSON): the request was answered, with nothing to read. */
  httpError?(status: number, body: string, replyTo: number): void;
  /** HTTP: the request `replyTo` was reset on a kept-alive connection before any answer, and sent again on a fresh one. */
  resent?(replyTo: number, why: string): void;
  /** The provider could not be started (stdio) or reached (HTTP). */
  unreachable(kind: "spawn-error" | "connect-error", message: string): void;
}

export interface Limits {
  maxLineBytes: number;
  maxStderrBytes: number;
  /** Shared by all of a run's connections: the bytes they may hold at once in lines not yet complete. */
  held?: HeldBytes;
}

/**
 * Told once per write: with nothing when the line went out to the provider
 * (stdio: into its stdin; HTTP: the request fully handed to the socket), or
 * with why it never will.
 */
export type Written = (unsent?: string) => void;

/** One way to talk to a provider: lines out, events in. */
export interface Connection {
  /** A line: text (written as UTF-8), or bytes that may be no UTF-8 at all (R1's stimuli). */
  write(line: string | Uint8Array, written?: Written): void;
  endInput(): void;
  /** Stop the provider (stdio: kill its process group; HTTP: abort what is in flight). */
  kill(): void;
  /** Settles once nothing of the provider is left running. */
  readonly done: Promise<void>;
}

/**
 * A provider that runs inside this process: each line written to it gives
 * the bytes it writes back, and, after a shutdown it honours, its exit
 * status. The bundled reference provider is one, so the selftest can drive
 * most of its cases without a process per session.
 */
export interface LineProvider {
  /** What it writes before reading anything. */
  banner(): string[];
  /**
   * One line in, as the pipe would carry its bytes (text is their UTF-8):
   * the lines it writes (each may hold anything, a newline included), and
   * its exit status if it ends.
   */
  receive(line: string | Uint8Array): { lines: string[]; exit?: number };
}

export interface StdioTarget {
  kind: "stdio";
  command: string[];
  /**
   * The provider the command would start, run inside this process instead
   * (the selftest's reference provider): one per session, as each session
   * would start its own process. Never recorded; the command names it.
   */
  inProcess?: () => LineProvider;
}

export interface HttpTarget {
  kind: "http";
  url: string;
  /** Extra request headers (--header); never secrets. */
  headers: Record<string, string>;
  /** The environment variable holding the bearer token: the token itself is read at connect time and never stored. */
  bearerTokenEnv?: string;
  /** PEM of extra trusted CA certificates (--ca). */
  ca?: string;
}

export type Target = StdioTarget | HttpTarget;

/** How the transcript and reports name a target: never with a secret in it. */
export function describeTarget(t: Target): { kind: "stdio"; command: string[]; in_process?: true } | { kind: "http"; url: string } {
  if (t.kind === "http") return { kind: "http", url: t.url };
  // A provider run in this process is named by the command that would serve it, and said to be in process: none was spawned.
  return { kind: "stdio", command: t.command, ...(t.inProcess ? { in_process: true as const } : {}) };
}
