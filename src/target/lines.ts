/**
 * Splits a byte stream into lines with a hard cap on line length, so a
 * provider that never sends a newline cannot make us buffer without bound.
 */
export interface LineChunk {
  /** The line (or, when over the cap, its first `keep` bytes), decoded as UTF-8. */
  text: string;
  bytes: number;
  overLong: boolean;
}

const KEEP = 4096;

/** The first `n` bytes of some buffers, copying no more than those. */
export function firstBytes(parts: readonly Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let got = 0;
  for (const p of parts) {
    if (got >= n) break;
    const take = p.subarray(0, n - got);
    out.push(take);
    got += take.length;
  }
  return Buffer.concat(out);
}

/**
 * The bytes all of a run's connections hold at once in lines (or bodies) not
 * yet complete: one pool, so fourteen sessions each sending a line that never
 * ends hold at most `max` together, not fourteen line caps. A line that
 * cannot have more is cut as over-long, exactly as at the line cap.
 */
export class HeldBytes {
  private held = 0;
  constructor(readonly max: number) {}

  take(n: number): boolean {
    if (this.held + n > this.max) return false;
    this.held += n;
    return true;
  }

  give(n: number): void {
    this.held -= n;
  }
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly maxBytes: number,
    private readonly pool?: HeldBytes,
  ) {}

  /** Feed a chunk; returns the complete lines it finished. */
  push(chunk: Buffer): LineChunk[] {
    const out: LineChunk[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      const crossed = this.take(piece);
      // Reported the moment it crosses the cap: a provider need never send the newline.
      if (crossed) out.push(crossed);
      if (nl === -1) break;
      const done = this.finish();
      if (done) out.push(done);
      start = nl + 1;
    }
    return out;
  }

  /** Drop an unfinished line without reporting it (the stream was torn down), giving its bytes back to the pool. */
  release(): void {
    this.pool?.give(this.size);
    this.parts = [];
    this.size = 0;
  }

  /** The unterminated remainder at end of stream, if any. */
  end(): LineChunk | undefined {
    if (this.size === 0 && !this.discarding) return undefined;
    return this.finish();
  }

  /** Buffer a piece; returns the over-long line's report when this piece crosses the cap. */
  private take(piece: Buffer): LineChunk | undefined {
    if (piece.length === 0 || this.discarding) return undefined;
    if (this.size + piece.length > this.maxBytes || (this.pool && !this.pool.take(piece.length))) {
      // Only the first KEEP bytes are kept: copying the whole line to cut it would double what it holds.
      const head = firstBytes([...this.parts, piece], KEEP);
      const bytes = this.size + piece.length;
      this.discarding = true;
      this.pool?.give(this.size);
      this.parts = [];
      this.size = 0;
      return { text: head.toString("utf8"), bytes, overLong: true };
    }
    this.parts.push(piece);
    this.size += piece.length;
    return undefined;
  }

  /** Ends the current line: its chunk, or nothing if it was already reported as over-long. */
  private finish(): LineChunk | undefined {
    if (this.discarding) {
      this.discarding = false;
      return undefined;
    }
    const buf = Buffer.concat(this.parts);
    this.pool?.give(this.size);
    this.parts = [];
    this.size = 0;
    return { text: buf.toString("utf8"), bytes: buf.length, overLong: false };
  }
}
