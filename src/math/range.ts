/**
 * The file-provenance range grammar (§6.2): "L<n>" or "L<a>-<b>", 1-indexed,
 * end inclusive. "Digested bytes: the exact UTF-8 source bytes addressed by
 * uri + range at retrieval time, with no normalization." Semantics follow the
 * published range vectors: lines end at LF (a bare CR is content), a line
 * keeps its terminator, an end past the last line clamps to it.
 */
export type RangeResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: "unrecognised" | "inverted" | "start_past_end" };

const GRAMMAR = /^L([1-9][0-9]*)(?:-([1-9][0-9]*))?$/;

/** Byte offsets where each line starts; a final LF does not open an empty line. */
function lineStarts(bytes: Uint8Array): number[] {
  if (bytes.length === 0) return [];
  const starts = [0];
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return starts;
}

/** The bytes a range addresses; an absent range is the whole resource. */
export function sliceRange(bytes: Uint8Array, range: string | undefined): RangeResult {
  if (range === undefined) return { ok: true, bytes };
  const m = GRAMMAR.exec(range);
  if (!m) return { ok: false, reason: "unrecognised" };
  // BigInt: an end "beyond any machine integer" still has a meaning (it clamps).
  const start = BigInt(m[1]!);
  const end = m[2] === undefined ? start : BigInt(m[2]);
  if (end < start) return { ok: false, reason: "inverted" };
  const starts = lineStarts(bytes);
  if (start > BigInt(starts.length)) return { ok: false, reason: "start_past_end" };
  const from = starts[Number(start) - 1]!;
  const last = end > BigInt(starts.length) ? starts.length : Number(end);
  const to = last < starts.length ? starts[last]! : bytes.length;
  return { ok: true, bytes: bytes.subarray(from, to) };
}
