import { sha256 } from "./sha256.ts";
import { bytesToHex, concatBytes, hexToBytes } from "@noble/hashes/utils.js";

/** §6.5 domain tags, byte for byte as the spec writes them. */
export const TAG = {
  genesis: "contextgraph/attest/1/genesis",
  link: "contextgraph/attest/1/link",
  frame: "contextgraph/attest/1/frame",
  merkleEmpty: "contextgraph/attest/1/merkle-empty",
} as const;

const utf8 = new TextEncoder();

/**
 * `utf8(s)`. A JS string holding a lone surrogate has no UTF-8 encoding; TextEncoder would
 * silently substitute U+FFFD, making two distinct strings commit identically. Refuse instead.
 */
export function utf8Bytes(s: string): Uint8Array {
  if (/\p{Cs}/u.test(s)) throw new RangeError("string holds a lone UTF-16 surrogate: it has no UTF-8 encoding");
  return utf8.encode(s);
}

/** `enc_str(s) = uint32be(byte_length(utf8(s))) ‖ utf8(s)` — the UTF-8 byte count, never String.length. */
export function encStr(s: string): Uint8Array {
  const bytes = utf8Bytes(s);
  if (bytes.length > 0xffffffff) throw new RangeError("string exceeds the uint32 length prefix");
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

/** `enc_opt(None) = 0x00`, `enc_opt(Some(s)) = 0x01 ‖ enc_str(s)`. `""` is Some(""), not None. */
export function encOpt(s: string | null | undefined): Uint8Array {
  return s === null || s === undefined ? Uint8Array.of(0x00) : concatBytes(Uint8Array.of(0x01), encStr(s));
}

/** A provenance link; an absent or null field is the encoding's None. */
export interface ProvenanceLink {
  type: string;
  uri?: string | null;
  range?: string | null;
  digest?: string | null;
  method?: string | null;
  by?: string | null;
}

/** "Field order is normative": type, uri, range, digest, method, by. */
export function encodeLink(link: ProvenanceLink): Uint8Array {
  return concatBytes(encStr(link.type), encOpt(link.uri), encOpt(link.range), encOpt(link.digest), encOpt(link.method), encOpt(link.by));
}

/**
 * `h₋₁ = SHA256(genesis)`, `hᵢ = SHA256(link ‖ hᵢ₋₁ ‖ encode(linkᵢ))`, folded source-first;
 * an empty provenance hashes to the genesis value, not to zero.
 */
export function chainHead(links: readonly ProvenanceLink[]): Uint8Array {
  const tag = utf8Bytes(TAG.link);
  let h = sha256(utf8Bytes(TAG.genesis));
  for (const link of links) h = sha256(tag, h, encodeLink(link));
  return h;
}

/** `SHA256(frame ‖ enc_str(provider_id) ‖ enc_str(frame.id) ‖ enc_opt(frame.content_digest) ‖ chain_head)`. */
export function frameCommitment(providerId: string, frameId: string, contentDigest: string | null | undefined, head: Uint8Array): Uint8Array {
  if (head.length !== 32) throw new RangeError(`chain head must be 32 bytes, got ${head.length}`);
  return sha256(utf8Bytes(TAG.frame), encStr(providerId), encStr(frameId), encOpt(contentDigest), head);
}

/** F7: "sha256:<64 lowercase hex>". */
export function toDigest(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new RangeError(`a sha256 digest is 32 bytes, got ${bytes.length}`);
  return `sha256:${bytesToHex(bytes)}`;
}

export type DigestParse = { ok: true; bytes: Uint8Array } | { ok: false; why: string };

/** Strict inverse of toDigest: the prefix, then exactly 64 lowercase hex digits. Uppercase is refused (F7). */
export function fromDigest(s: string): DigestParse {
  if (typeof s !== "string") return { ok: false, why: "not a string" };
  if (!s.startsWith("sha256:")) return { ok: false, why: "missing the sha256: prefix" };
  const hex = s.slice(7);
  if (hex.length !== 64) return { ok: false, why: `expected 64 hex digits, got ${hex.length}` };
  if (!/^[0-9a-f]{64}$/.test(hex)) return { ok: false, why: "not lowercase hex" };
  return { ok: true, bytes: hexToBytes(hex) };
}

// §6.5.3, RFC 6962 hashing.

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

export function merkleLeaf(c: Uint8Array): Uint8Array {
  return sha256(LEAF, c);
}

export function merkleNode(l: Uint8Array, r: Uint8Array): Uint8Array {
  return sha256(NODE, l, r);
}

/** `k = largest power of 2 < n`, for n ≥ 2. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH over the commitments, already in canonical order. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(utf8Bytes(TAG.merkleEmpty));
  return mth(leaves);
}

function mth(c: readonly Uint8Array[]): Uint8Array {
  if (c.length === 1) return merkleLeaf(c[0]!);
  const k = split(c.length);
  return merkleNode(mth(c.slice(0, k)), mth(c.slice(k)));
}

/** The wire shape of §6.5's `inclusion_proof`. Path runs leaf to root. */
export interface ProofStep {
  sibling: string;
  sibling_is_left: boolean;
}

export interface InclusionProof {
  leaf_index: number;
  leaf_count: number;
  path: ProofStep[];
}

/** RFC 6962 §2.1.1 PATH(m, D[n]). Throws on an index outside the tree: that is a caller bug, not evidence. */
export function inclusionProof(leaves: readonly Uint8Array[], index: number): InclusionProof {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length) {
    throw new RangeError(`leaf index ${index} outside a tree of ${leaves.length}`);
  }
  return { leaf_index: index, leaf_count: leaves.length, path: path(leaves, index) };
}

function path(d: readonly Uint8Array[], m: number): ProofStep[] {
  if (d.length === 1) return [];
  const k = split(d.length);
  return m < k
    ? [...path(d.slice(0, k), m), { sibling: toDigest(mth(d.slice(k))), sibling_is_left: false }]
    : [...path(d.slice(k), m - k), { sibling: toDigest(mth(d.slice(0, k))), sibling_is_left: true }];
}

/**
 * The sibling sides a proof for (index, count) must have, leaf to root. "The leaf count is part of the
 * proof because a root alone does not pin the tree's size": the count fixes the path's length and every
 * side, so a proof taken from a differently-shaped tree is refused rather than folded.
 */
function expectedSides(index: number, count: number): boolean[] {
  if (count === 1) return [];
  const k = split(count);
  return index < k ? [...expectedSides(index, k), false] : [...expectedSides(index - k, count - k), true];
}

export type ProofFailure =
  | { kind: "bad-leaf-count"; leaf_count: unknown }
  | { kind: "bad-leaf-index"; leaf_index: unknown }
  | { kind: "index-out-of-range"; leaf_index: number; leaf_count: number }
  | { kind: "wrong-path-length"; expected: number; actual: number }
  | { kind: "wrong-side"; step: number; expected_sibling_is_left: boolean }
  | { kind: "malformed-sibling"; step: number; why: string };

export type ProofResult = { ok: true; root: Uint8Array } | { ok: false; failure: ProofFailure };

/** Folds a proof up from the commitment `c` (the leaf's data, not its leaf hash). */
export function rootFromProof(c: Uint8Array, proof: InclusionProof): ProofResult {
  const { leaf_index: index, leaf_count: count, path: steps } = proof;
  if (!Number.isSafeInteger(count) || count < 1) return fail({ kind: "bad-leaf-count", leaf_count: count });
  if (!Number.isSafeInteger(index) || index < 0) return fail({ kind: "bad-leaf-index", leaf_index: index });
  if (index >= count) return fail({ kind: "index-out-of-range", leaf_index: index, leaf_count: count });
  const sides = expectedSides(index, count);
  if (!Array.isArray(steps) || steps.length !== sides.length) {
    return fail({ kind: "wrong-path-length", expected: sides.length, actual: Array.isArray(steps) ? steps.length : 0 });
  }
  let h = merkleLeaf(c);
  for (const [i, step] of steps.entries()) {
    if (step.sibling_is_left !== sides[i]) return fail({ kind: "wrong-side", step: i, expected_sibling_is_left: sides[i]! });
    const sib = fromDigest(step.sibling);
    if (!sib.ok) return fail({ kind: "malformed-sibling", step: i, why: sib.why });
    h = step.sibling_is_left ? merkleNode(sib.bytes, h) : merkleNode(h, sib.bytes);
  }
  return { ok: true, root: h };
}

function fail(failure: ProofFailure): ProofResult {
  return { ok: false, failure };
}

/** A FrameId (§6.3) as the wire names it. */
export interface FrameIdentity {
  provider_id: string;
  frame_id: string;
  content_digest?: string | null;
}

/**
 * Code-point order, which is exactly UTF-8 byte order (UTF-8 preserves it by design) and so the order
 * of the reference's `Option<String>` triple. JS `<` and `localeCompare` are not: `<` compares UTF-16
 * code units, which puts an astral character (a surrogate pair, 0xD800–0xDBFF) before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

/** Canonical order (context-reuse §"Canonical ordering"): provider_id, frame_id, content_digest, None before Some. */
export function compareIdentity(a: FrameIdentity, b: FrameIdentity): number {
  return compareCodePoints(a.provider_id, b.provider_id) || compareCodePoints(a.frame_id, b.frame_id) || compareOpt(a.content_digest, b.content_digest);
}

function compareOpt(a: string | null | undefined, b: string | null | undefined): number {
  const aNone = a === null || a === undefined;
  const bNone = b === null || b === undefined;
  if (aNone || bNone) return aNone === bNone ? 0 : aNone ? -1 : 1;
  return compareCodePoints(a, b);
}
