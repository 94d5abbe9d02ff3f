/** B3: "token_cost MUST equal ceil(utf8_byte_length(content) / 4)." */
/** Counted, not encoded: no allocation per frame. A lone surrogate counts as the 3 bytes of the U+FFFD an encoder writes for it. */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

export function budgetTokens(content: string): number {
  return Math.ceil(utf8ByteLength(content) / 4);
}
