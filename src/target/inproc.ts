import type { Connection, ConnectionEvents, Limits } from "./connection.ts";
import { LineSplitter } from "./lines.ts";

/**
 * A provider that runs inside this process: each line written to it gives
 * the bytes it writes back, and, after a shutdown it honours, its exit
 * status. The bundled reference provider is one, so the selftest can drive
 * most of its cases without a process per session.
 */
export interface LineProvider {
  /** What it writes before reading anything. */
  banner(): string[];
  /** One line in: the lines it writes (each may hold anything, a newline included), and its exit status if it ends. */
  receive(line: string): { lines: string[]; exit?: number };
}

/**
 * A LineProvider behind the same Connection a child process has. Its output
 * goes through the same line splitter, after a turn of the event loop, as a
 * pipe's would: framing, caps and ordering are judged exactly as on stdio.
 * End of input ends it with status 0 (as the stdio fixture does); kill ends
 * it by SIGKILL.
 */
export class InProcessConnection implements Connection {
  private readonly splitter: LineSplitter;
  private ended = false;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((r) => {
    this.resolveDone = r;
  });

  constructor(
    private readonly provider: LineProvider,
    limits: Limits,
    private readonly on: ConnectionEvents,
  ) {
    this.splitter = new LineSplitter(limits.maxLineBytes);
    const banner = provider.banner();
    if (banner.length > 0) setImmediate(() => this.emit(banner));
  }

  private emit(lines: string[]): void {
    if (this.ended) return;
    for (const l of lines) for (const chunk of this.splitter.push(Buffer.from(`${l}\n`, "utf8"))) this.on.line(chunk);
  }

  private end(code: number | null, signal: string | null): void {
    if (this.ended) return;
    this.ended = true;
    const rest = this.splitter.end();
    if (rest) this.on.line(rest);
    this.on.eof();
    this.on.exit(code, signal);
    this.resolveDone();
  }

  write(line: string): void {
    if (this.ended) return;
    setImmediate(() => {
      if (this.ended) return;
      // A provider that throws dies as a process would: with a nonzero status.
      let out: { lines: string[]; exit?: number };
      try {
        out = this.provider.receive(line);
      } catch {
        this.end(1, null);
        return;
      }
      this.emit(out.lines);
      if (out.exit !== undefined) this.end(out.exit, null);
    });
  }

  endInput(): void {
    setImmediate(() => this.end(0, null));
  }

  kill(): void {
    setImmediate(() => this.end(null, "SIGKILL"));
  }
}
