import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from "node:crypto";
import { readFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha512 } from "@noble/hashes/sha2.js";
import t from "tap";
import { chainHead, frameCommitment, fromDigest, toDigest } from "../../src/math/attest.ts";
import { publicKeyFault, signatureFault, verifyAttestation, type Verdict } from "../../src/math/ed25519.ts";
import { publicKeyOf, signCommitment } from "../../src/math/ed25519-sign.ts";

const readJson = (url: URL): any => JSON.parse(readFileSync(url, "utf8"));
const pub = readJson(new URL("../published/attestation-vectors.json", import.meta.url));
const ours = readJson(new URL("../vectors/attestation.json", import.meta.url));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "hex"));
const undig = (s: string): Uint8Array => {
  const r = fromDigest(s);
  if (!r.ok) throw new Error(`bad digest in vectors: ${s}`);
  return r.bytes;
};

// The second route: node:crypto (OpenSSL) Ed25519 over raw keys.
const nodePrivate = (seed: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
const nodePublic = (key: Uint8Array) =>
  createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), key]), format: "der", type: "spki" });

const L = ed25519.Point.Fn.ORDER;
const le32 = (n: bigint): Uint8Array => {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) b[i] = Number(n & 0xffn);
  return b;
};
const le32hex = (n: bigint): string => hex(le32(n));
const leToBig = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);

// A genuine, valid attestation to mutate: the published signature fixture.
const seed = unhex(pub.signature.signing_key_seed_hex);
const att = pub.signature.attestation;
const fc = pub.frame_commitment;
const commitment = frameCommitment(fc.provider_id, fc.frame.id, fc.frame.content_digest, chainHead(fc.frame.provenance.map((k: string) => pub.links[k])));
const valid = {
  expectedCommitment: commitment,
  signedCommitment: att.signed_commitment as string,
  algorithm: att.algorithm as string,
  publicKeyHex: pub.signature.public_key_hex as string,
  signatureHex: att.signature as string,
};

t.test("published signature vector", async (t) => {
  t.equal(att.signed_commitment, fc.commitment, "it signs the published frame commitment");
  t.equal(toDigest(commitment), att.signed_commitment);
  t.equal(hex(publicKeyOf(seed)), pub.signature.public_key_hex, "public key from the seed");
  t.equal(hex(signCommitment(seed, commitment)), att.signature, "deterministic signature over the 32 commitment bytes");
  t.same(verifyAttestation(valid), { kind: "valid" });
  t.equal(hex(nodeSign(null, commitment, nodePrivate(seed))), att.signature, "node:crypto signs the same bytes identically");
  t.equal(hex(ed25519.sign(commitment, seed)), att.signature, "and so does noble's signer: signCommitment is the platform's, proven against both");
  t.ok(nodeVerify(null, commitment, nodePublic(unhex(valid.publicKeyHex)), unhex(att.signature)), "and verifies it");
  t.throws(() => signCommitment(seed, new TextEncoder().encode(att.signed_commitment)), RangeError, "never the rendered string");
});

t.test("published strictness set", async (t) => {
  const s = pub.verifier_strictness;
  t.equal(s.small_order_public_keys_hex.length, 8);
  for (const k of s.small_order_public_keys_hex as string[]) {
    t.ok(ed25519.Point.fromHex(k, false).multiplyUnsafe(8n).is0(), `${k}: 8P = identity`);
    t.same(verifyAttestation({ ...valid, publicKeyHex: k }), { kind: "malformed-key", why: "small-order point (8A = identity)" }, k);
  }
  for (const k of s.non_canonical_public_keys_hex as string[]) {
    t.ok(ed25519.Point.fromHex(k, true).isSmallOrder(), `${k}: read mod p it is a small-order point`);
    t.same(verifyAttestation({ ...valid, publicKeyHex: k }), { kind: "malformed-key", why: "y is not reduced mod p (non-canonical encoding)" }, k);
  }
});

t.test("our signature vectors", async (t) => {
  const v = ours.signature.rfc8032_test_1;
  const [sk, pk, msg, sig] = [v.secret_key_hex, v.public_key_hex, v.message_hex, v.signature_hex].map(unhex) as Uint8Array[];
  t.equal(hex(publicKeyOf(sk!)), v.public_key_hex, "RFC 8032 TEST 1: public key");
  t.equal(hex(ed25519.sign(msg!, sk!)), v.signature_hex, "RFC 8032 TEST 1: the primitive signs it");
  t.ok(ed25519.verify(sig!, msg!, pk!, { zip215: false }), "RFC 8032 TEST 1: strict verify accepts it");
  t.ok(nodeVerify(null, msg!, nodePublic(pk!), sig!), "RFC 8032 TEST 1: node:crypto accepts it");
  t.equal(publicKeyFault(pk!), undefined);
  t.equal(signatureFault(sig!), undefined);

  const f = ours.frame_commitments[ours.signature.commitment_signed_with_test_1_key.frame];
  const c = frameCommitment(f.provider_id, f.frame_id, f.content_digest, chainHead([]));
  const want = ours.signature.commitment_signed_with_test_1_key.signature_hex;
  t.equal(hex(signCommitment(sk!, c)), want, "a commitment signed with the TEST 1 key");
  t.same(
    verifyAttestation({ expectedCommitment: c, signedCommitment: f.commitment, algorithm: "ed25519", publicKeyHex: v.public_key_hex, signatureHex: want }),
    { kind: "valid" },
  );
});

const flip = (h: string, byte: number, bit = 1): string => {
  const b = unhex(h);
  b[byte] = b[byte]! ^ bit;
  return hex(b);
};
const sigBytes = unhex(valid.signatureHex);
const R = hex(sigBytes.subarray(0, 32));
const S = sigBytes.subarray(32);
const otherCommitment = undig(ours.frame_commitments.present.commitment);
const st = ours.strictness;

t.test("verdicts", async (t) => {
  const cases: [string, Partial<typeof valid>, Verdict | RegExp][] = [
    ["the published attestation", {}, { kind: "valid" }],
    [
      "uppercase key and signature hex spell the same bytes",
      { publicKeyHex: valid.publicKeyHex.toUpperCase(), signatureHex: valid.signatureHex.toUpperCase() },
      { kind: "valid" },
    ],
    ["a flipped bit in S", { signatureHex: flip(valid.signatureHex, 32) }, { kind: "bad-signature" }],
    ["another R that decodes", { signatureHex: hex(new Uint8Array([...publicKeyOf(new Uint8Array(32).fill(1)), ...S])) }, { kind: "bad-signature" }],
    ["another party's key", { publicKeyHex: ours.signature.rfc8032_test_1.public_key_hex }, { kind: "bad-signature" }],
    ["a mixed-order key is not refused as small-order", { publicKeyHex: st.non_canonical_alias.canonical_hex }, { kind: "bad-signature" }],
    [
      "commitment mismatch, reported even though the signature is also bad",
      { expectedCommitment: otherCommitment, signatureHex: flip(valid.signatureHex, 40) },
      { kind: "commitment-mismatch", expected: ours.frame_commitments.present.commitment, signed: valid.signedCommitment },
    ],
    ["commitment mismatch outranks an unknown algorithm", { expectedCommitment: otherCommitment, algorithm: "ed448" }, /^commitment-mismatch$/],
    ["commitment mismatch outranks a malformed key", { expectedCommitment: otherCommitment, publicKeyHex: "00" }, /^commitment-mismatch$/],
    ["unknown algorithm", { algorithm: "ed448" }, { kind: "unknown-algorithm", algorithm: "ed448" }],
    ["algorithm names are case-sensitive", { algorithm: "Ed25519" }, { kind: "unknown-algorithm", algorithm: "Ed25519" }],
    ["unknown algorithm before a key it could not read", { algorithm: "rsa-pss", publicKeyHex: "zz" }, /^unknown-algorithm$/],
    [
      "uppercase signed_commitment",
      { signedCommitment: valid.signedCommitment.toUpperCase().replace("SHA256", "sha256") },
      { kind: "malformed-commitment", why: "not lowercase hex" },
    ],
    [
      "signed_commitment without prefix",
      { signedCommitment: valid.signedCommitment.slice(7) },
      { kind: "malformed-commitment", why: "missing the sha256: prefix" },
    ],
    ["key too short", { publicKeyHex: valid.publicKeyHex.slice(2) }, { kind: "malformed-key", why: "expected 64 hex digits" }],
    ["key not hex", { publicKeyHex: "g".repeat(64) }, { kind: "malformed-key", why: "expected 64 hex digits" }],
    ["key y not on the curve", { publicKeyHex: le32hex(2n) }, { kind: "malformed-key", why: "not a point on the curve" }],
    [
      "key y + p for a non-small-order point",
      { publicKeyHex: st.non_canonical_alias.alias_hex },
      { kind: "malformed-key", why: "y is not reduced mod p (non-canonical encoding)" },
    ],
    ...(st.x_zero_sign_bit_public_keys_hex as string[]).map((k): [string, Partial<typeof valid>, Verdict] => [
      `key ${k.slice(0, 4)}…${k.slice(-2)}: x = 0 with the sign bit`,
      { publicKeyHex: k },
      { kind: "malformed-key", why: "x = 0 with the sign bit set (non-canonical encoding)" },
    ]),
    ["signature too short", { signatureHex: valid.signatureHex.slice(2) }, { kind: "malformed-signature", why: "expected 128 hex digits" }],
    ["S + L", { signatureHex: R + hex(le32(leToBig(S) + L)) }, { kind: "malformed-signature", why: "S is not reduced mod L (non-canonical encoding)" }],
    [
      "R = y + p",
      { signatureHex: st.non_canonical_alias.alias_hex + hex(S) },
      { kind: "malformed-signature", why: "R: y is not reduced mod p (non-canonical encoding)" },
    ],
    [
      "R with x = 0 and the sign bit",
      { signatureHex: st.x_zero_sign_bit_public_keys_hex[0] + hex(S) },
      { kind: "malformed-signature", why: "R: x = 0 with the sign bit set (non-canonical encoding)" },
    ],
    ["R not on the curve", { signatureHex: le32hex(2n) + hex(S) }, { kind: "malformed-signature", why: "R: not a point on the curve" }],
  ];
  for (const [name, patch, want] of cases) {
    const got = verifyAttestation({ ...valid, ...patch });
    if (want instanceof RegExp) t.match(got.kind, want, name);
    else t.same(got, want, name);
  }
});

t.test("what zip215: false adds over the library default", async (t) => {
  // The identity key with R = identity, S = 0 satisfies the equation for every message.
  const identity = unhex(pub.verifier_strictness.small_order_public_keys_hex[2]);
  const forged = new Uint8Array([...identity, ...new Uint8Array(32)]);
  t.ok(ed25519.verify(forged, commitment, identity), "@noble/curves' default (ZIP-215) accepts the forgery");
  t.notOk(ed25519.verify(forged, commitment, identity, { zip215: false }), "zip215: false refuses it");
  t.same(verifyAttestation({ ...valid, publicKeyHex: hex(identity), signatureHex: hex(forged) }), {
    kind: "malformed-key",
    why: "small-order point (8A = identity)",
  });

  // y = p reads mod p as y = 0, a point of order 4: the same forgery goes through a lax decoder.
  const yIsP = unhex(pub.verifier_strictness.non_canonical_public_keys_hex[0]);
  t.ok(ed25519.verify(forged, commitment, yIsP), "the default accepts the forgery under the y = p key");
  t.notOk(ed25519.verify(forged, commitment, yIsP, { zip215: false }), "zip215: false refuses it");
  t.same(verifyAttestation({ ...valid, publicKeyHex: hex(yIsP), signatureHex: hex(forged) }), {
    kind: "malformed-key",
    why: "y is not reduced mod p (non-canonical encoding)",
  });

  // S < L is one check ZIP-215 shares: both modes refuse S + L, and the verdict says why.
  const unreducedS = new Uint8Array([...sigBytes.subarray(0, 32), ...le32(leToBig(S) + L)]);
  t.notOk(ed25519.verify(unreducedS, commitment, unhex(valid.publicKeyHex)), "the default refuses S + L");
  t.notOk(ed25519.verify(unreducedS, commitment, unhex(valid.publicKeyHex), { zip215: false }), "zip215: false refuses S + L");
});

t.test("a signature only the cofactored equation accepts: the platform's verifier refuses it, and noble's decides it valid", async (t) => {
  // R = [r]B + T with T of order 8, S = r + k·a: [S]B = R − T + [k]A, so 8([S]B − R − [k]A) = 0 but [S]B ≠ R + [k]A.
  const { scalar: a, point: A } = ed25519.utils.getExtendedPublicKey(seed);
  const torsion = ed25519.Point.fromBytes(
    unhex(
      pub.verifier_strictness.small_order_public_keys_hex.find((k: string) => {
        const p = ed25519.Point.fromBytes(unhex(k), false);
        return !p.is0() && !p.double().is0() && !p.double().double().is0();
      }),
    ),
    false,
  );
  const r = 0x1234567n;
  const Rb = ed25519.Point.BASE.multiply(r).add(torsion).toBytes();
  const key = A.toBytes();
  const k = ed25519.Point.Fn.create(leToBig(sha512(new Uint8Array([...Rb, ...key, ...commitment]))));
  const sig = new Uint8Array([...Rb, ...le32(ed25519.Point.Fn.create(r + k * a))]);
  t.notOk(nodeVerify(null, commitment, nodePublic(key), sig), "the cofactorless equation (node:crypto) refuses it");
  t.ok(ed25519.verify(sig, commitment, key, { zip215: false }), "the cofactored one (noble, zip215: false) accepts it");
  t.same(verifyAttestation({ ...valid, publicKeyHex: hex(key), signatureHex: hex(sig) }), { kind: "valid" }, "the verdict is noble's");
  const forged = new Uint8Array([...sig.subarray(0, 32), ...le32(ed25519.Point.Fn.create(r + k * a + 1n))]);
  t.same(verifyAttestation({ ...valid, publicKeyHex: hex(key), signatureHex: hex(forged) }), { kind: "bad-signature" }, "and one neither accepts is bad");
});

t.test("an R a lenient verifier reads as the identity is refused by its bytes, whatever the platform's verifier makes of it", async (t) => {
  // R = identity, S = k·a: [S]B = R + [k]A holds for R read as the identity. Two non-canonical spellings of it.
  // OpenSSL and BoringSSL refuse both already: this pins the verdict whatever the platform; the refusal from the bytes
  // before the platform is asked is what keeps it so on a platform that reads R leniently.
  const { scalar: a, point: A } = ed25519.utils.getExtendedPublicKey(seed);
  const key = A.toBytes();
  const aliases: [string, Uint8Array, string][] = [
    ["y = p + 1", le32(ed25519.Point.Fp.ORDER + 1n), "R: y is not reduced mod p (non-canonical encoding)"],
    [
      "y = 1 with the sign bit",
      (() => {
        const b = le32(1n);
        b[31] = 0x80;
        return b;
      })(),
      "R: x = 0 with the sign bit set (non-canonical encoding)",
    ],
  ];
  for (const [name, Rb, why] of aliases) {
    const k = ed25519.Point.Fn.create(leToBig(sha512(new Uint8Array([...Rb, ...key, ...commitment]))));
    const sig = new Uint8Array([...Rb, ...le32(ed25519.Point.Fn.create(k * a))]);
    t.ok(ed25519.verify(sig, commitment, key), `${name}: a lenient verifier (ZIP-215) accepts it`);
    t.same(verifyAttestation({ ...valid, publicKeyHex: hex(key), signatureHex: hex(sig) }), { kind: "malformed-signature", why }, name);
  }
});

t.test("fault helpers refuse wrong lengths", async (t) => {
  t.equal(publicKeyFault(new Uint8Array(31)), "expected 32 bytes, got 31");
  t.equal(signatureFault(new Uint8Array(63)), "expected 64 bytes, got 63");
  t.throws(() => verifyAttestation({ ...valid, expectedCommitment: new Uint8Array(31) }), RangeError);
});
