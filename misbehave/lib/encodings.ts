import { sha256 } from "../../src/math/sha256.ts";
import { concatBytes } from "@noble/hashes/utils.js";
import { linksOf } from "../../src/attest/commit.ts";
import { TAG, type ProvenanceLink } from "../../src/math/attest.ts";
import { type Obj } from "../../src/protocol/envelope.ts";

/**
 * The classic ways to get §6.5's encoding wrong, one knob each, so a
 * misbehave mode can commit to a frame exactly as a buggy port would.
 */
export interface Mistakes {
  /** Length prefix width in bytes (the spec: 4, uint32 big-endian). */
  prefixBytes?: 2 | 4;
  /** Count UTF-16 code units (String.length) instead of UTF-8 bytes. */
  utf16Length?: boolean;
  /** Drop enc_opt's presence byte. */
  noPresenceByte?: boolean;
}

const utf8 = new TextEncoder();

export function commitWith(m: Mistakes, providerId: string, frame: Obj): Uint8Array {
  const encStr = (s: string): Uint8Array => {
    const bytes = utf8.encode(s);
    const n = m.utf16Length ? s.length : bytes.length;
    const prefix = new Uint8Array(m.prefixBytes ?? 4);
    const view = new DataView(prefix.buffer);
    if (prefix.length === 2) view.setUint16(0, n, false);
    else view.setUint32(0, n, false);
    return concatBytes(prefix, bytes);
  };
  const encOpt = (s: string | null | undefined): Uint8Array =>
    s === null || s === undefined
      ? m.noPresenceByte
        ? new Uint8Array(0)
        : Uint8Array.of(0)
      : m.noPresenceByte
        ? encStr(s)
        : concatBytes(Uint8Array.of(1), encStr(s));
  const encodeLink = (l: ProvenanceLink): Uint8Array =>
    concatBytes(encStr(l.type), encOpt(l.uri), encOpt(l.range), encOpt(l.digest), encOpt(l.method), encOpt(l.by));
  let h = sha256(utf8.encode(TAG.genesis));
  for (const l of linksOf(frame)) h = sha256(concatBytes(utf8.encode(TAG.link), h, encodeLink(l)));
  const digest = typeof frame.content_digest === "string" ? frame.content_digest : undefined;
  return sha256(concatBytes(utf8.encode(TAG.frame), encStr(providerId), encStr(String(frame.id)), encOpt(digest), h));
}
