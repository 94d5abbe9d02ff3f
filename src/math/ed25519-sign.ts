/**
 * Ed25519 signing (RFC 8032) and the algorithm's name: the platform's (node:crypto), with nothing of
 * @noble/curves, so that a provider which signs loads no verifier. Verification is src/math/ed25519.ts.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign as platformSign } from "node:crypto";

/** The one attestation algorithm the spec names. */
export const ED25519 = "ed25519";

/** The DER of an Ed25519 PrivateKeyInfo (RFC 8410 §7) up to its 32-byte seed. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** The signing keys in use (the reference provider's two), read once each. */
const SIGNING_KEYS = new Map<string, KeyObject>();

function signingKey(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError("an Ed25519 secret key is its 32-byte seed");
  const k = Buffer.from(seed).toString("hex");
  let key = SIGNING_KEYS.get(k);
  if (key === undefined) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
    if (SIGNING_KEYS.size >= 16) SIGNING_KEYS.clear();
    SIGNING_KEYS.set(k, key);
  }
  return key;
}

/**
 * Deterministic RFC 8032 Ed25519 over the 32 commitment bytes; `secretKey` is the 32-byte seed. The platform's
 * signer: RFC 8032 signing has one answer for a seed and a message, and it gives it without noble's first-use
 * table of multiples (some 20 ms and 10 MB in every process that signs) or noble's curve set-up at import.
 */
export function signCommitment(secretKey: Uint8Array, commitment: Uint8Array): Uint8Array {
  if (commitment.length !== 32) throw new RangeError("a commitment is 32 bytes");
  return new Uint8Array(platformSign(null, commitment, signingKey(secretKey)));
}

/** The 32-byte public key of a 32-byte seed: the last 32 bytes of its SubjectPublicKeyInfo. */
export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  const spki = createPublicKey(signingKey(secretKey)).export({ format: "der", type: "spki" });
  return new Uint8Array(spki.subarray(spki.length - 32));
}
