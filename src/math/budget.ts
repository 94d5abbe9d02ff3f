/** B3: "token_cost MUST equal ceil(utf8_byte_length(content) / 4)." */
const encoder = new TextEncoder();

export function utf8ByteLength(s: string): number {
  return encoder.encode(s).length;
}

export function budgetTokens(content: string): number {
  return Math.ceil(utf8ByteLength(content) / 4);
}
