import { sha256 } from "./sha256.ts";
import { bytesToHex } from "@noble/hashes/utils.js";

/** F5/D1: "sha256:<64 lowercase hex>". Lowercase is mandated: digests compare byte for byte. */
export const DIGEST_GRAMMAR = /^sha256:[0-9a-f]{64}$/;

export function isDigest(v: unknown): v is string {
  return typeof v === "string" && DIGEST_GRAMMAR.test(v);
}

export function digestOf(bytes: Uint8Array): string {
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

export function digestOfText(text: string): string {
  return digestOf(new TextEncoder().encode(text));
}
