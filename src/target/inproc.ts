import type { Connection, ConnectionEvents, LineProvider, Limits, Written } from "./connection.ts";

export type { LineProvider };
import { LineSplitter } from "./lines.ts";

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
    this.splitter = new LineSplitter(limits.maxLineBytes, limits.held);
    setImmediate(() => {
      // A provider that throws before reading anything dies as a process would: with a nonzero status.
      let banner: string[];
      try {
        banner = provider.banner();
      } catch {
        this.end(1, null);
        return;
      }
      this.emit(banner);
    });
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

  write(line: string | Uint8Array, written?: Written): void {
    if (this.ended) {
      written?.("the provider had exited");
      return;
    }
    written?.();
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
