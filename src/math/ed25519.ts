import { createPublicKey, type KeyObject, verify as platformVerify } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToNumberLE } from "@noble/curves/utils.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { fromDigest, toDigest } from "./attest.ts";
import { ED25519 } from "./ed25519-sign.ts";

/**
 * §6.5.4: "Implementations SHOULD use a strict Ed25519 verifier — one rejecting small-order public keys
 * and non-canonical signature encodings." The refusals below are made first, by name (y < p for A and R, no x = 0
 * with the sign bit, A on the curve and not of small order, S < L; R's decoding only where the platform refuses):
 * the spec asks for findings, not a boolean,
 * and the platform's verifier, asked next, does not make all of them (it accepts R = identity, S = 0 under a
 * small-order key, for every message). A signature it accepts after them is valid; any other is decided by
 * @noble/curves' `verify` with `zip215: false` (the cofactored equation). platformAccepts says why that is one
 * verdict whichever of the two decides.
 */
const { Point } = ed25519;
const P = Point.Fp.ORDER;
const L = Point.Fn.ORDER;
const Y_MASK = (1n << 255n) - 1n;

/** Why a 32-byte point encoding is not canonical, read from its bytes alone (no point decoded), or undefined. */
function encodingFault(bytes: Uint8Array): string | undefined {
  const n = bytesToNumberLE(bytes);
  const y = n & Y_MASK;
  const signBit = n >> 255n === 1n;
  if (y >= P) return "y is not reduced mod p (non-canonical encoding)";
  // x = 0 exactly when y² = 1; its only encoding has the sign bit clear (RFC 8032 §5.1.3 step 4).
  if (signBit && (y === 1n || y === P - 1n)) return "x = 0 with the sign bit set (non-canonical encoding)";
  return undefined;
}

/** Why a 32-byte point encoding is not strictly canonical, or undefined when it decodes. */
function pointEncodingFault(bytes: Uint8Array): string | undefined {
  const fault = encodingFault(bytes);
  if (fault) return fault;
  try {
    Point.fromBytes(bytes, false);
  } catch {
    return "not a point on the curve";
  }
  return undefined;
}

/** Why a signature's S is refused: not reduced mod L. */
function scalarFault(sig: Uint8Array): string | undefined {
  return bytesToNumberLE(sig.subarray(32)) >= L ? "S is not reduced mod L (non-canonical encoding)" : undefined;
}

/** Why a public key is refused, or undefined when it is acceptable. */
export function publicKeyFault(key: Uint8Array): string | undefined {
  if (key.length !== 32) return `expected 32 bytes, got ${key.length}`;
  const fault = pointEncodingFault(key);
  if (fault) return fault;
  if (Point.fromBytes(key, false).isSmallOrder()) return "small-order point (8A = identity)";
  return undefined;
}

/** Why a signature encoding is refused before any equation is checked, or undefined. */
export function signatureFault(sig: Uint8Array): string | undefined {
  if (sig.length !== 64) return `expected 64 bytes, got ${sig.length}`;
  const rFault = pointEncodingFault(sig.subarray(0, 32));
  if (rFault) return `R: ${rFault}`;
  return scalarFault(sig);
}

export type Verdict =
  | { kind: "valid" }
  | { kind: "commitment-mismatch"; expected: string; signed: string }
  | { kind: "bad-signature" }
  | { kind: "unknown-algorithm"; algorithm: string }
  | { kind: "malformed-key"; why: string }
  | { kind: "malformed-signature"; why: string }
  | { kind: "malformed-commitment"; why: string };

export interface AttestationCheck {
  /** The commitment the verifier recomputed from the frame (or result set) in hand. */
  expectedCommitment: Uint8Array;
  signedCommitment: string;
  algorithm: string;
  publicKeyHex: string;
  signatureHex: string;
}

/** The spec fixes no case for key and signature hex; either spells the same bytes, so both are read. */
function parseHex(hex: string, bytes: number): Uint8Array | undefined {
  return typeof hex === "string" && hex.length === bytes * 2 && /^[0-9a-fA-F]*$/.test(hex) ? hexToBytes(hex.toLowerCase()) : undefined;
}

/**
 * §6.5.4 order: the recomputed commitment is compared "to signed_commitment before examining the
 * signature". "A mismatch means the frame changed after signing; a signature failure means the key is
 * wrong or the signature forged", so tampering is never reported as a key problem. The algorithm is
 * part of examining the signature, so an unknown one (F8: uncheckable) is reported only after that.
 */
export function verifyAttestation(a: AttestationCheck): Verdict {
  if (a.expectedCommitment.length !== 32) throw new RangeError("expectedCommitment must be 32 bytes");
  const signed = fromDigest(a.signedCommitment);
  if (!signed.ok) return { kind: "malformed-commitment", why: signed.why };
  const expected = toDigest(a.expectedCommitment);
  if (expected !== a.signedCommitment) return { kind: "commitment-mismatch", expected, signed: a.signedCommitment };

  if (a.algorithm !== ED25519) return { kind: "unknown-algorithm", algorithm: a.algorithm };
  return examinedOnce(a.signatureHex, a.signedCommitment, a.publicKeyHex, () => examine(a, signed.bytes));
}

/** The key, the signature, then the signature over the commitment bytes. */
function examine(a: AttestationCheck, message: Uint8Array): Verdict {
  const key = parseHex(a.publicKeyHex, 32);
  if (!key) return { kind: "malformed-key", why: "expected 64 hex digits" };
  const known = keyOnce(a.publicKeyHex.toLowerCase(), key);
  if (known.fault) return { kind: "malformed-key", why: known.fault };

  const sig = parseHex(a.signatureHex, 64);
  if (!sig) return { kind: "malformed-signature", why: "expected 128 hex digits" };
  // "only then checks the signature over the commitment bytes": the 32 raw bytes, not their rendering. R's encoding
  // and S are judged from their bytes before the platform is asked; R's decoding alone is left to its acceptance (an R
  // it accepts equals the point it computed). Any signature it refuses goes through the refusals in order, then noble.
  if (encodingFault(sig.subarray(0, 32)) === undefined && scalarFault(sig) === undefined && platformAccepts(sig, message, known.platform))
    return { kind: "valid" };
  const sigFault = signatureFault(sig);
  if (sigFault) return { kind: "malformed-signature", why: sigFault };
  return ed25519.verify(sig, message, key, { zip215: false }) ? { kind: "valid" } : { kind: "bad-signature" };
}

/** A key's fault, found once, and for a key without one the platform's reading of it (undefined where it cannot read it). */
interface KnownKey {
  fault: string | undefined;
  platform: KeyObject | undefined;
}

/** A run sees a handful of keys on thousands of signatures: each key is examined (a point decoding and 8A) and read by the platform once. Bounded as EXAMINED is. */
const KEYS = new Map<string, KnownKey>();
const MAX_KEYS = 10_000;

function keyOnce(hex: string, key: Uint8Array): KnownKey {
  let known = KEYS.get(hex);
  if (known === undefined) {
    const fault = publicKeyFault(key);
    known = { fault, platform: fault === undefined ? platformKey(key) : undefined };
    if (KEYS.size >= MAX_KEYS) KEYS.clear();
    KEYS.set(hex, known);
  }
  return known;
}

/** The DER of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4) up to its 32 key bytes. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function platformKey(key: Uint8Array): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, key]), format: "der", type: "spki" });
  } catch {
    return undefined;
  }
}

/**
 * Whether the platform's Ed25519 (BoringSSL under Bun, OpenSSL under Node; about ten times faster than noble's,
 * 0.04 against 0.4 ms a signature under Bun) accepts the signature. It checks the cofactorless equation
 * [S]B = R + [k]A; whatever satisfies it satisfies the cofactored one (multiply both sides by 8). Every other
 * refusal of the strict verifier is made before it is asked, from the bytes: the key's, R's encoding, S < L. So what
 * it accepts is valid, and what it refuses, or cannot read, is left to the refusals in order and noble's strict
 * verifier: the verdict is noble's either way, whatever the platform makes of a non-canonical R.
 */
function platformAccepts(sig: Uint8Array, message: Uint8Array, key: KeyObject | undefined): boolean {
  if (key === undefined) return false;
  try {
    return platformVerify(null, message, key, sig);
  } catch {
    return false;
  }
}

/**
 * Examining a key and a signature is a pure function of (signature, signed
 * commitment, key) as given, and a run sees the same signed frame in answer
 * after answer: each triple is examined once. Bounded, so a provider sending
 * endless distinct signatures costs an examination each, never unbounded memory.
 */
const EXAMINED = new Map<string, Verdict>();
const MAX_EXAMINED = 10_000;

function examinedOnce(sig: unknown, message: string, key: unknown, examine: () => Verdict): Verdict {
  if (typeof sig !== "string" || typeof key !== "string") return examine();
  // Unambiguous whatever the provider's strings hold: a hit is the same three strings, never a collision.
  const k = JSON.stringify([sig, message, key]);
  const known = EXAMINED.get(k);
  if (known !== undefined) return known;
  // Shared by every reader of the same triple: read-only.
  const v = Object.freeze(examine());
  if (EXAMINED.size >= MAX_EXAMINED) EXAMINED.clear();
  EXAMINED.set(k, v);
  return v;
}
