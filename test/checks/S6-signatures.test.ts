import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import S6S from "../../checks/S6-signatures.ts";
import { merkleRoot } from "../../src/math/attest.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK } from "../helpers/transcript.ts";
import { answer, commit, entry, FRAMES, has, KEY, sign, unsigned, type Obj, type Signed } from "../helpers/attestation.ts";

const OTHER_SECRET = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const keyed = (...keys: Obj[]): object => ({ ...ACK, attester_keys: keys });

/** Ed25519's group order. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The same signature with S + L in place of S: the same equation, a non-canonical encoding. */
function sPlusL(hex: string): string {
  const b = hexToBytes(hex);
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(b[i]!);
  s += L;
  for (let i = 32; i < 64; i++) {
    b[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return bytesToHex(b);
}

const ED448_KEY = { key_id: "canned-ed448-1", algorithm: "ed448", public_key: "ab".repeat(57) };
const asEd448 = (r: Signed): void => {
  entry(r, 0).attestation = { ...entry(r, 0).attestation, key_id: ED448_KEY.key_id, algorithm: "ed448", signature: "cd".repeat(114) };
};
const frameC = 'frame_attestations[0] (frame "frm_c")';

runCases(S6S, [
  {
    name: "every signature verifies under the published key",
    build: answer(),
    status: "pass",
    says: [/every attestation signature verifies under its published key \(strict Ed25519\)/],
  },
  {
    name: "signature hex in uppercase spells the same bytes",
    build: answer((r) => (entry(r, 1).attestation!.signature = String(entry(r, 1).attestation!.signature).toUpperCase())),
    status: "pass",
  },
  { name: "no attestations at all", build: unsigned, status: "skip", says: [/attached no attestation/] },
  {
    name: "entries that assert nothing (neither signature nor proof)",
    build: answer((r) => {
      r.frame_attestations = r.frame_attestations!.map((e) => ({ frame: e.frame }));
      delete r.result_attestation;
    }),
    status: "skip",
    says: [/no attestation carries a signature/],
  },
  {
    name: "an unknown algorithm is uncheckable (F8), not a failure",
    build: answer(asEd448, keyed(KEY, ED448_KEY)),
    status: "info",
    says: [has(`${frameC} uses algorithm "ed448": uncheckable (F8), so the frame is not counted as attested`)],
  },
  {
    name: "a key_id the ack does not publish",
    build: answer((r) => (entry(r, 0).attestation!.key_id = "canned-ed25519-2")),
    status: "warn",
    codes: ["S6-signatures.unknown-key"],
    strict: "warn",
    says: [has(`${frameC} names key_id "canned-ed25519-2", which handshake_ack.attester_keys does not publish | a published key_id | "canned-ed25519-2"`)],
  },
  {
    name: "no attester_keys at all",
    build: answer(() => {}, ACK),
    status: "warn",
    strict: "warn",
    says: [has('result_attestation names key_id "canned-ed25519-1", which handshake_ack.attester_keys does not publish')],
  },
  {
    name: "a frame signed by another key",
    build: answer((r) => (entry(r, 1).attestation!.signature = sign(commit(FRAMES[1]!), OTHER_SECRET))),
    status: "warn",
    codes: ["S6-signatures.bad-signature"],
    strict: "warn",
    says: [
      has(
        'frame_attestations[1] (frame "frm_a"): the signature does not verify under key "canned-ed25519-1" | a valid Ed25519 signature over the signed commitment | bad signature',
      ),
    ],
  },
  {
    name: "the root's signature over other bytes",
    build: answer((r) => (r.result_attestation!.signature = sign(merkleRoot(FRAMES.map(commit))))),
    status: "warn",
    strict: "warn",
    says: [has('result_attestation: the signature does not verify under key "canned-ed25519-1"')],
  },
  {
    name: "a small-order public key",
    build: answer(() => {}, keyed({ ...KEY, public_key: `01${"00".repeat(31)}` })),
    status: "warn",
    codes: ["S6-signatures.malformed-key"],
    strict: "warn",
    says: [
      has(
        `${frameC}: key "canned-ed25519-1" is refused by a strict verifier: small-order point (8A = identity) | a canonical, full-order Ed25519 public key | small-order point (8A = identity)`,
      ),
    ],
  },
  {
    name: "a non-canonical S (S + L)",
    build: answer((r) => (entry(r, 0).attestation!.signature = sPlusL(String(entry(r, 0).attestation!.signature)))),
    status: "warn",
    codes: ["S6-signatures.malformed-signature"],
    strict: "warn",
    says: [
      has(`${frameC}: the signature is refused by a strict verifier: S is not reduced mod L (non-canonical encoding) | a canonical 64-byte Ed25519 signature`),
    ],
  },
  {
    name: "a truncated signature",
    build: answer((r) => (r.result_attestation!.signature = String(r.result_attestation!.signature).slice(0, 126))),
    status: "warn",
    strict: "warn",
    says: [has("result_attestation: the signature is refused by a strict verifier: expected 128 hex digits")],
  },
  {
    name: "a signed_commitment in uppercase hex",
    build: answer((r) => (entry(r, 2).attestation!.signed_commitment = `sha256:${String(entry(r, 2).attestation!.signed_commitment).slice(7).toUpperCase()}`)),
    status: "warn",
    codes: ["S6-signatures.malformed-commitment"],
    strict: "warn",
    says: [has('frame_attestations[2] (frame "frm_b"): signed_commitment is malformed: not lowercase hex | sha256:<64 lowercase hex> | not lowercase hex')],
  },
]);

runCases(S6S, [
  {
    name: "an unknown algorithm under a key_id the ack does not publish",
    build: answer(asEd448),
    status: "info",
    says: [has(`${frameC} uses algorithm "ed448": uncheckable (F8)`)],
  },
]);
