import type { Progress } from "../engine/record.ts";
import { err } from "./io.ts";

/**
 * A one-line progress display on a terminal's stderr: how many probes are
 * done, which are running, and the time elapsed, redrawn four times a second
 * and erased when the run ends. Only for a terminal: off one (CI logs, pipes)
 * and under --json, nothing is written.
 */
export class TerminalProgress implements Progress {
  private total = 0;
  private finished = 0;
  private readonly running = new Map<string, string>();
  private readonly start = performance.now();
  private readonly timer: ReturnType<typeof setInterval>;
  private drawn = false;

  constructor(
    private readonly write: (s: string) => void = err,
    /** What is counted: probes (a provider run) or scenarios (a host run). */
    private readonly unit = "probes",
  ) {
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  planned(probes: number): void {
    this.total = probes;
  }

  started(session: string, probe: string): void {
    this.running.set(session, probe);
  }

  done(session: string): void {
    if (this.running.delete(session)) this.finished++;
  }

  /** The line as drawn now (without the escape that erases the last one), within `cols` columns: what is running is cut first, never the time. */
  line(cols = Number.POSITIVE_INFINITY): string {
    const secs = ((performance.now() - this.start) / 1000).toFixed(1);
    const now = [...new Set(this.running.values())];
    const shown = now.length > 3 ? `${now.slice(0, 3).join(", ")} +${now.length - 3}` : now.join(", ");
    const head = `cgp-conform: ${this.finished}/${this.total} ${this.unit} done`;
    const tail = ` · ${secs} s`;
    const middle = shown ? ` · running ${shown}` : "";
    const room = cols - 1 - head.length - tail.length;
    const l = `${head}${middle.length <= room ? middle : room > 12 ? `${middle.slice(0, room - 1)}…` : ""}${tail}`;
    return l.length >= cols ? `${l.slice(0, cols - 2)}…` : l;
  }

  private draw(): void {
    this.write(`\r\x1b[K${this.line(process.stderr.columns || 80)}`);
    this.drawn = true;
  }

  /** Stop and erase the line, leaving the terminal as it was. */
  stop(): void {
    clearInterval(this.timer);
    if (this.drawn) this.write("\r\x1b[K");
  }
}
