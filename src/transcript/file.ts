import type { Transcript, TranscriptEvent, TranscriptHeader } from "./types.ts";

/** Serialise a transcript as NDJSON: the header, then one event per line. */
export function toNdjson(t: Transcript): string {
  return [t.header, ...t.events].map((o) => JSON.stringify(o)).join("\n") + "\n";
}

export class TranscriptFormatError extends Error {}

/** Parse a saved transcript; line numbers are re-derived from positions. */
export function fromNdjson(text: string): Transcript {
  const lines = text.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  if (lines.length === 0) throw new TranscriptFormatError("the file is empty");
  const parsed = lines.map((l, i) => {
    try {
      return JSON.parse(l) as unknown;
    } catch {
      throw new TranscriptFormatError(`line ${i + 1} is not JSON`);
    }
  });
  const header = parsed[0] as TranscriptHeader;
  if (typeof header !== "object" || header === null || header.cgp_conform_transcript !== 1) {
    throw new TranscriptFormatError("line 1 is not a cgp-conform transcript header");
  }
  const target = header.target as { kind?: unknown } | undefined;
  if (typeof header.host_version !== "string" || typeof header.timeout_ms !== "number" || (target?.kind !== "stdio" && target?.kind !== "http")) {
    throw new TranscriptFormatError("line 1 is a transcript header missing host_version, timeout_ms or target");
  }
  const events = parsed.slice(1).map((e, i) => {
    const ev = e as TranscriptEvent;
    if (typeof ev !== "object" || ev === null || typeof ev.probe !== "string" || typeof ev.dir !== "string") {
      throw new TranscriptFormatError(`line ${i + 2} is not a transcript event`);
    }
    return { ...ev, n: i + 2 };
  });
  return { header, events };
}
