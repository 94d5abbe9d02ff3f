import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { Connection, ConnectionEvents, Limits, StdioTarget, Written } from "./connection.ts";
import { LineSplitter } from "./lines.ts";
import { killGroup, track, untrack } from "./reaper.ts";
import { shellLine } from "./shell.ts";

const NEWLINE = Buffer.from("\n");
/** A provider child process in its own process group, speaking NDJSON on stdio. */
export class StdioConnection implements Connection {
  private readonly pid: number | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private closed = false;
  readonly done: Promise<void>;

  constructor(target: StdioTarget, limits: Limits, on: ConnectionEvents) {
    const [file, ...args] = target.command;
    // node:child_process, not execa: this is the hot path of every session, and all it needs is a spawn with
    // three pipes in a group of its own, and its end (execa's import and per-spawn work were most of a run's spawning cost).
    this.child = spawn(file!, args, { detached: true, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    this.pid = this.child.pid;
    if (this.pid !== undefined) track(this.pid);

    const splitter = new LineSplitter(limits.maxLineBytes, limits.held);
    this.child.stdout.on("data", (c: Uint8Array) => {
      // A view, not a copy: the chunk is ours alone.
      for (const line of splitter.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength))) on.line(line);
    });
    this.child.stdout.on("end", () => {
      const rest = splitter.end();
      if (rest) on.line(rest);
      on.eof();
    });
    // Torn down without an end (destroyed after a kill): what it held goes back to the run's pool.
    this.child.stdout.on("close", () => splitter.release());
    let stderrBytes = 0;
    this.child.stderr.on("data", (c: Uint8Array) => {
      if (stderrBytes >= limits.maxStderrBytes) return;
      const room = limits.maxStderrBytes - stderrBytes;
      stderrBytes += c.length;
      on.stderr(Buffer.from(c.subarray(0, room)).toString("utf8") + (c.length > room ? "\n[stderr capped]" : ""));
    });
    this.child.stdin.on("error", () => {
      // EPIPE after the provider died: the exit note already says so.
    });
    // A read error on a pipe ends that stream as its end would; the child's close still comes, and says how it ended.
    this.child.stdout.on("error", () => this.child.stdout.destroy());
    this.child.stderr.on("error", () => this.child.stderr.destroy());

    // The child's end: "close" comes once it has exited and its pipes are closed (or destroyed by kill()), so every
    // line it wrote has been read first; a spawn that failed gives "error" with no pid, and then "close" too.
    let spawnError: NodeJS.ErrnoException | undefined;
    this.child.on("error", (e: NodeJS.ErrnoException) => {
      if (this.pid === undefined) spawnError ??= e;
    });
    this.done = new Promise<void>((resolve) => {
      this.child.on("close", (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.pid !== undefined) untrack(this.pid);
        this.closed = true;
        if (this.pid === undefined) on.unreachable("spawn-error", `Command failed with ${spawnError?.code ?? "an error"}: ${shellLine(target.command)}`);
        else on.exit(code, signal);
        resolve();
      });
    });
  }

  get alive(): boolean {
    return !this.closed;
  }

  write(line: string | Uint8Array, written?: Written): void {
    if (this.closed || !this.child.stdin.writable) {
      written?.(this.closed ? "the provider had exited" : "the provider's stdin was closed");
      return;
    }
    this.child.stdin.write(typeof line === "string" ? `${line}\n` : Buffer.concat([line, NEWLINE]));
    written?.();
  }

  endInput(): void {
    this.child.stdin.end();
  }

  /**
   * Kill the provider's whole process group. A process that left the group
   * (setsid) may still hold our pipes open; after a grace second the pipes
   * are destroyed on our side, so waiting for the child can never hang.
   */
  kill(): void {
    if (this.pid !== undefined) killGroup(this.pid);
    setTimeout(() => {
      this.child.stdout.destroy();
      this.child.stderr.destroy();
      this.child.stdin.destroy();
    }, 1000).unref();
  }
}
