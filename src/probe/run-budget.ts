/**
 * The bounds on what a session, and a whole run across its sessions, keeps
 * of what providers send (src/probe/channel.ts counts each line into them).
 */
import { heavyInput } from "../meta/jit.ts";
import { counted } from "../verdict/words.ts";

/** What one session may receive before the provider is taken to be flooding it. */
export const SESSION_MAX_LINES = 20_000;

/**
 * What a whole run keeps of what providers send, across all its sessions at
 * once: every line kept is parsed and scored, so this is what bounds the
 * run's memory whatever a provider does. An honest provider's run keeps a
 * few hundred lines and well under a mebibyte; one line may be as long as
 * the line cap, and a budget always holds several of those.
 */
export class RunBudget {
  private lines = 0;
  private bytes = 0;
  private frames = 0;
  readonly maxLines: number;
  readonly maxBytes: number;
  /** Frames cost memory far beyond their bytes (each is judged by a dozen checks): ~2 KB apiece at the peak of scoring. */
  readonly maxFrames: number;
  private spent = false;
  /** Told once, when the run first receives more than it keeps: the run cannot be completed, so every session should end then. */
  private readonly onSpent: ((limit: string) => void) | undefined;

  constructor(maxLineBytes: number, opts: { maxLines?: number; maxBytes?: number; maxFrames?: number; onSpent?: (limit: string) => void } = {}) {
    this.onSpent = opts.onSpent;
    this.maxLines = opts.maxLines ?? 50_000;
    this.maxBytes = opts.maxBytes ?? Math.max(64 * 1024 * 1024, 4 * maxLineBytes);
    this.maxFrames = opts.maxFrames ?? 150_000;
  }

  /** The bytes of the lines counted so far (of an over-long line, the part kept). */
  get received(): number {
    return this.bytes;
  }

  /** Count a line received and the frames it carries; once the run has received more than it keeps, which limit it passed. */
  take(bytes: number, frames: number): string | undefined {
    this.lines++;
    this.bytes += bytes;
    this.frames += frames;
    heavyInput(this.bytes);
    const passed = this.passed();
    if (passed !== undefined && !this.spent) {
      this.spent = true;
      this.onSpent?.(passed);
    }
    return passed;
  }

  private passed(): string | undefined {
    if (this.lines > this.maxLines) return `more than ${this.maxLines} lines`;
    if (this.bytes > this.maxBytes) return `more than ${this.maxBytes} bytes (four times --max-line-bytes, 64 MiB at least: raise it to keep more)`;
    if (this.frames > this.maxFrames) return `more than ${counted(this.maxFrames, "frame")}`;
    return undefined;
  }
}
