/**
 * A line sent as bytes that are not UTF-8 (R1's invalid-UTF-8 stimulus) has
 * no exact spelling as a JSON string: the record keeps its decoding in
 * `line`, as a receiver's UTF-8 decoder would see it (U+FFFD for each
 * maximal invalid subsequence, the WHATWG decoder's rule), and its exact
 * bytes in `line_hex`.
 */

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The text a UTF-8 decoder that replaces what it cannot decode gives. */
export function decodeUtf8(bytes: Uint8Array): string {
  return lenient.decode(bytes);
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** The bytes of lowercase hex, or undefined when it is not an even run of hex digits. */
export function fromHex(hex: string): Uint8Array | undefined {
  return /^(?:[0-9a-f]{2})*$/.test(hex) ? new Uint8Array(Buffer.from(hex, "hex")) : undefined;
}

/** What a send records of a line: its text, and its exact bytes when they are not UTF-8. */
export function recordedLine(line: string | Uint8Array): { line: string; line_hex?: string } {
  if (typeof line === "string") return { line };
  return isUtf8(line) ? { line: decodeUtf8(line) } : { line: decodeUtf8(line), line_hex: toHex(line) };
}

/** Length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), or 0 when none starts there. */
function sequenceAt(b: Uint8Array, i: number): number {
  const x = b[i]!;
  if (x < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (x >= 0xc2 && x <= 0xdf) return cont(1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    const [lo, hi] = x === 0xe0 ? [0xa0, 0xbf] : x === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const [lo, hi] = x === 0xf0 ? [0x90, 0xbf] : x === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Bytes for a reader: what is UTF-8 as text, every other byte as \xHH. */
export function escapedBytes(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceAt(bytes, i);
    if (n === 0) {
      out += `\\x${bytes[i]!.toString(16).toUpperCase().padStart(2, "0")}`;
      i++;
    } else {
      out += decodeUtf8(bytes.subarray(i, i + n));
      i += n;
    }
  }
  return out;
}
