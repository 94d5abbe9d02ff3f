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

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;
  private discarded = 0;
  private prefix: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {}

  /** Feed a chunk; returns the complete lines it finished. */
  push(chunk: Buffer): LineChunk[] {
    const out: LineChunk[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      this.take(piece);
      if (nl === -1) break;
      out.push(this.finish());
      start = nl + 1;
    }
    return out;
  }

  /** The unterminated remainder at end of stream, if any. */
  end(): LineChunk | undefined {
    if (this.size === 0 && !this.discarding) return undefined;
    return this.finish();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding) {
      this.discarded += piece.length;
      return;
    }
    if (this.size + piece.length > this.maxBytes) {
      const all = Buffer.concat([...this.parts, piece]);
      this.prefix = all.subarray(0, KEEP);
      this.discarding = true;
      this.discarded = all.length;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private finish(): LineChunk {
    if (this.discarding) {
      const line = { text: this.prefix.toString("utf8"), bytes: this.discarded, overLong: true };
      this.discarding = false;
      this.discarded = 0;
      this.prefix = Buffer.alloc(0);
      return line;
    }
    const buf = Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    return { text: buf.toString("utf8"), bytes: buf.length, overLong: false };
  }
}
