import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import F11 from "../../checks/F11.ts";
import F12 from "../../checks/F12.ts";
import F13 from "../../checks/F13.ts";
import F6 from "../../checks/F6.ts";
import F7 from "../../checks/F7.ts";
import S6S from "../../checks/S6-signatures.ts";
import { canonicalOrder, commitmentOf, identityOf, linksOf } from "../../src/attest/commit.ts";
import { chainHead, frameCommitment, inclusionProof, merkleLeaf, merkleNode, merkleRoot, toDigest, type InclusionProof } from "../../src/math/attest.ts";
import { budgetTokens } from "../../src/math/budget.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { publicKeyOf, signCommitment } from "../../src/math/ed25519.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, emptySqueeze, frame, query, served, type TranscriptBuilder } from "../helpers/transcript.ts";
import { show } from "../../checks/kit/show.ts";

type Obj = Record<string, unknown>;

/** The provider id every commitment binds: the ack's provider.name (§6.5.2). */
const PROVIDER = ACK.provider.name;
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const OTHER_SECRET = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const KEY = { key_id: "canned-ed25519-1", algorithm: "ed25519", public_key: bytesToHex(publicKeyOf(SECRET)) };
const KEYED_ACK = { ...ACK, attester_keys: [KEY] };
const keyed = (...keys: Obj[]): object => ({ ...ACK, attester_keys: keys });

const doc = (id: string, content: string, score: number): Obj =>
  frame({
    id,
    content,
    token_cost: budgetTokens(content),
    score,
    content_digest: digestOfText(content),
    citation_label: `${id}.md`,
    provenance: [{ type: "file", uri: `file:///repo/docs/${id}.md`, digest: digestOfText(content), method: "file-read", by: PROVIDER }],
  });

/** Served in score order; the canonical (frame id) order is frm_a, frm_b, frm_c. */
const FRAMES = [doc("frm_c", "gamma", 0.9), doc("frm_a", "alpha", 0.7), doc("frm_b", "beta", 0.5)];
/** A frame the provider considered and truncated away. */
const DROPPED = doc("frm_d", "delta", 0.2);

const commit = (f: Obj): Uint8Array => commitmentOf(PROVIDER, f);
const canonical = (fs: Obj[]): Obj[] => canonicalOrder(fs, (f) => identityOf(PROVIDER, f));
const sign = (c: Uint8Array, secret = SECRET): string => bytesToHex(signCommitment(secret, c));

function attestation(c: Uint8Array, over: Obj = {}): Obj {
  return { signed_commitment: toDigest(c), key_id: KEY.key_id, algorithm: "ed25519", attester_id: PROVIDER, signature: sign(c), issued_at: "2026-08-29T12:00:00Z", ...over };
}

interface Entry {
  frame: Obj;
  attestation?: Obj;
  inclusion_proof?: InclusionProof;
}
interface Signed {
  frames: Obj[];
  truncated: boolean;
  frame_attestations?: Entry[];
  result_attestation?: Obj;
}

/**
 * An honestly signed answer: per frame (in arrival order) its full identity,
 * a signature over its §6.5.2 commitment and an inclusion proof, and one
 * signature over the §6.5.3 root of the canonical order. `tree` is the frame
 * set the proofs and root are taken over (a provider that signs the
 * candidate set it truncated passes more than it serves).
 */
function signed(frames: Obj[] = FRAMES, tree: Obj[] = frames): Signed {
  const ordered = canonical(tree);
  const leaves = ordered.map(commit);
  return {
    frames,
    truncated: false,
    frame_attestations: frames.map((f) => ({
      frame: { ...identityOf(PROVIDER, f) },
      attestation: attestation(commit(f)),
      inclusion_proof: inclusionProof(leaves, ordered.findIndex((g) => g.id === f.id)),
    })),
    result_attestation: attestation(merkleRoot(leaves)),
  };
}

const SIGNED = signed();
const ROOT = String(SIGNED.result_attestation!.signed_commitment);
const entry = (r: Signed, i: number): Entry => r.frame_attestations![i]!;

/**
 * The answer as sample-query receives it (line 9; budget-squeeze's empty
 * answer before it is unsigned), after `edit` breaks one thing.
 */
function answer(edit: (r: Signed) => void = () => {}, ack: object = KEYED_ACK, base: Signed = SIGNED): () => TranscriptBuilder {
  return () => {
    const r = structuredClone(base);
    edit(r);
    return emptySqueeze().probe("sample-query").handshake(ack).send("sample", query("s1")).recv({ type: "frames", id: "s1", result: r });
  };
}

const unsigned = () => served(FRAMES);
const rootOnly = answer((r) => delete r.frame_attestations);

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** The evidence text contains exactly this. */
const has = (s: string): RegExp => new RegExp(escape(s));

/** RFC 6962 done wrong: an odd level duplicates its last node. */
function duplicateLastLeafRoot(leaves: Uint8Array[]): Uint8Array {
  let level = leaves.map(merkleLeaf);
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

// ---------------------------------------------------------------- F6

runCases(F6, [
  { name: "attestations beside the frames", build: answer(), status: "pass", says: [/no frame carries an attestation member/] },
  { name: "no attestations at all", build: unsigned, status: "skip", says: [/the provider attached no attestation to any answer \(attestations are optional: §6\.5\)/] },
  {
    name: "an attestation inside the frame it signs",
    build: answer((r) => (r.frames[0]!.attestation = entry(r, 0).attestation)),
    status: "fail",
    says: [has("result.frames carries an attestation inside a frame: frames[0]/attestation, frames[0]/attestation/signed_commitment | attestations only in result.frame_attestations / result.result_attestation | attestation, signed_commitment")],
  },
  {
    name: "a signed_commitment inside a provenance link (a hash preimage)",
    build: answer((r) => ((r.frames[1]!.provenance as Obj[])[0]!.signed_commitment = entry(r, 1).attestation!.signed_commitment)),
    status: "fail",
    says: [has("inside a frame: frames[1]/provenance/0/signed_commitment")],
  },
  {
    name: "attestations only inside a frame, none beside",
    build: answer((r) => {
      r.frames[2]!.frame_attestations = r.frame_attestations;
      delete r.frame_attestations;
      delete r.result_attestation;
    }),
    status: "fail",
    says: [has("inside a frame: frames[2]/frame_attestations, frames[2]/frame_attestations/0/attestation, frames[2]/frame_attestations/0/attestation/signed_commitment")],
  },
]);

// ---------------------------------------------------------------- F7

/** F7's evidence for frame_attestations[i] signing `signed` where §6.5.2 gives `expected`. */
const misSigned = (i: number, id: string, signed: Uint8Array, expected: Uint8Array): RegExp =>
  has(`frame_attestations[${i}] for frame "${id}" signs "${toDigest(signed)}", but §6.5.2 over that frame (provider "${PROVIDER}", its content_digest and provenance chain) gives ${toDigest(expected)} | ${toDigest(expected)} | "${toDigest(signed)}"`);

const EDITED = { ...FRAMES[1]!, provenance: [{ ...(FRAMES[1]!.provenance as Obj[])[0]!, method: "summarised" }] };

runCases(F7, [
  { name: "every frame commitment recomputes", build: answer(), status: "pass", says: [/every frame attestation signs the recomputed frame commitment/] },
  { name: "no attestations at all", build: unsigned, status: "skip", says: [/attached no attestation/] },
  { name: "a root and no frame attestations", build: rootOnly, status: "skip", says: [/no frame attestation names a frame its result carries \(F11's concern\)/] },
  {
    name: "provenance edited after signing",
    build: answer((r) => (r.frames[1] = structuredClone(EDITED))),
    status: "fail",
    says: [misSigned(1, "frm_a", commit(FRAMES[1]!), commit(EDITED))],
  },
  {
    name: "the chain head signed alone (liftable to any frame citing the same source)",
    build: answer((r) => (entry(r, 0).attestation = attestation(chainHead(linksOf(FRAMES[0]!))))),
    status: "fail",
    says: [misSigned(0, "frm_c", chainHead(linksOf(FRAMES[0]!)), commit(FRAMES[0]!))],
  },
  {
    name: "a commitment under another provider id (a host-local id)",
    build: answer((r) => (entry(r, 2).attestation = attestation(commitmentOf("local-7", FRAMES[2]!)))),
    status: "fail",
    says: [misSigned(2, "frm_b", commitmentOf("local-7", FRAMES[2]!), commit(FRAMES[2]!))],
  },
  {
    name: "a commitment that encodes the content_digest as None",
    build: answer((r) => (entry(r, 0).attestation = attestation(frameCommitment(PROVIDER, "frm_c", undefined, chainHead(linksOf(FRAMES[0]!)))))),
    status: "fail",
    says: [misSigned(0, "frm_c", frameCommitment(PROVIDER, "frm_c", undefined, chainHead(linksOf(FRAMES[0]!))), commit(FRAMES[0]!))],
  },
]);

// ---------------------------------------------------------------- F11

/** How F11 names an entry: its identity as evidence quotes it (cut at 120 characters). */
const named = (i: number, id: Obj): string => `frame_attestations[${i}] (${show(id, 120)})`;

runCases(F11, [
  { name: "every entry names a carried frame in full", build: answer(), status: "pass", says: [/every frame_attestations entry names in full a frame its result carries/] },
  { name: "no attestations at all", build: unsigned, status: "skip" },
  { name: "a root and no entries", build: rootOnly, status: "skip", says: [/no answer carries frame_attestations entries/] },
  {
    name: "an entry without the content_digest",
    build: answer((r) => delete entry(r, 0).frame.content_digest),
    status: "fail",
    says: [has(`${named(0, { provider_id: PROVIDER, frame_id: "frm_c" })} does not name the full identity: content_digest missing | provider_id, frame_id and content_digest`)],
  },
  {
    name: "an entry without the provider_id",
    build: answer((r) => delete entry(r, 1).frame.provider_id),
    status: "fail",
    says: [has(`${named(1, { frame_id: "frm_a", content_digest: digestOfText("alpha") })} does not name the full identity: provider_id missing`)],
  },
  {
    name: "an entry implied by position (no identity at all)",
    build: answer((r) => (entry(r, 2).frame = {})),
    status: "fail",
    says: [has(`${named(2, {})} does not name the full identity: provider_id, frame_id missing`)],
  },
  {
    name: "an entry for a frame truncated away",
    build: answer((r) => r.frame_attestations!.push({ frame: { ...identityOf(PROVIDER, DROPPED) }, attestation: attestation(commit(DROPPED)) })),
    status: "fail",
    says: [has(`${named(3, { ...identityOf(PROVIDER, DROPPED) })} names a frame this result does not carry | the identity of a frame in result.frames`), /…\(134 chars\)\) names a frame/],
  },
  {
    name: "an entry naming a stale content_digest",
    build: answer((r) => (entry(r, 2).frame.content_digest = digestOfText("beta, before the edit"))),
    status: "fail",
    says: [has(`${named(2, { provider_id: PROVIDER, frame_id: "frm_b", content_digest: digestOfText("beta, before the edit") })} names a frame this result does not carry`)],
  },
  {
    name: "an entry naming another provider",
    build: answer((r) => (entry(r, 0).frame.provider_id = "someone-else")),
    status: "fail",
    says: [/frame_attestations\[0\] \(\{"provider_id":"someone-else".*\) names a frame this result does not carry/],
  },
]);

// ---------------------------------------------------------------- F12

const CANONICAL = canonical(FRAMES).map(commit);
const wrongRoot = (root: Uint8Array, diagnosis: string): RegExp =>
  has(`step sample: result_attestation signs "${toDigest(root)}", not the root of the frames carried (${ROOT}): ${diagnosis} | ${ROOT} | "${toDigest(root)}"`);

runCases(F12, [
  { name: "the root of exactly the frames returned, canonical order", build: answer(), status: "pass", says: [/every result_attestation signs the Merkle root of exactly the frames returned, in canonical order/] },
  { name: "the cheapest honest shape: one root, proofs, no per-frame signature", build: answer((r) => r.frame_attestations!.forEach((e) => delete e.attestation)), status: "pass" },
  { name: "an empty answer signs the empty-tree root", build: answer(() => {}, KEYED_ACK, signed([])), status: "pass" },
  { name: "frame attestations but no root", build: answer((r) => delete r.result_attestation), status: "skip", says: [/attached no attestation to any answer \(attestations are optional: §6\.5\), or no result_attestation/] },
  {
    name: "the root over arrival order",
    build: answer((r) => (r.result_attestation = attestation(merkleRoot(FRAMES.map(commit))))),
    status: "fail",
    says: [wrongRoot(merkleRoot(FRAMES.map(commit)), "it is the root over the same frames in arrival order, not canonical order")],
  },
  {
    name: "the root with the duplicate-last-leaf shortcut",
    build: answer((r) => (r.result_attestation = attestation(duplicateLastLeafRoot(CANONICAL)))),
    status: "fail",
    says: [wrongRoot(duplicateLastLeafRoot(CANONICAL), "it is the root with the duplicate-last-leaf shortcut, not RFC 6962's split")],
  },
  {
    name: "the root over the candidate set before truncation",
    build: answer(() => {}, KEYED_ACK, signed(FRAMES, [...FRAMES, DROPPED])),
    status: "fail",
    says: [wrongRoot(merkleRoot(canonical([...FRAMES, DROPPED]).map(commit)), "it matches no ordering or tree shape of the frames carried: a root over a different set (a truncated-away candidate set?)")],
  },
]);

// ---------------------------------------------------------------- F13

/** frame_attestations[1] is frm_a, canonical leaf 0 of 3: a two-step path. */
const proof = (r: Signed, i: number): InclusionProof => entry(r, i).inclusion_proof!;
const proofOf = (i: number, id: string): string => `frame_attestations[${i}].inclusion_proof (frame "${id}")`;
const FAKE_SIBLING = digestOfText("not a sibling");

runCases(F13, [
  { name: "every proof folds to the signed root", build: answer(), status: "pass", says: [/every inclusion proof recomputes the signed root/] },
  { name: "no attestations at all", build: unsigned, status: "skip" },
  { name: "signatures, no proofs (they are optional)", build: answer((r) => r.frame_attestations!.forEach((e) => delete e.inclusion_proof)), status: "skip", says: [/no answer carries an inclusion proof \(they are optional\)/] },
  {
    name: "proofs from the untruncated tree",
    build: answer(() => {}, KEYED_ACK, signed(FRAMES, [...FRAMES, DROPPED])),
    status: "fail",
    says: [has(`${proofOf(0, "frm_c")} declares leaf_count 4, but the result carries 3 frames | 3 | 4`)],
  },
  {
    name: "a path one step short",
    build: answer((r) => proof(r, 1).path.pop()),
    status: "fail",
    says: [has(`${proofOf(1, "frm_a")} cannot be folded: {"kind":"wrong-path-length","expected":2,"actual":1} | a path of the shape leaf_index and leaf_count fix | wrong-path-length`)],
  },
  {
    name: "a sibling on the wrong side",
    build: answer((r) => (proof(r, 1).path[0]!.sibling_is_left = true)),
    status: "fail",
    says: [has(`${proofOf(1, "frm_a")} cannot be folded: {"kind":"wrong-side","step":0,"expected_sibling_is_left":false}`)],
  },
  {
    name: "a leaf index outside the tree",
    build: answer((r) => (proof(r, 2).leaf_index = 5)),
    status: "fail",
    says: [has(`${proofOf(2, "frm_b")} cannot be folded: {"kind":"index-out-of-range","leaf_index":5,"leaf_count":3}`)],
  },
  {
    name: "a path step that is not an object",
    build: answer((r) => ((proof(r, 0).path as unknown[])[0] = null)),
    status: "fail",
    says: [/frame_attestations\[0\]\.inclusion_proof \(frame "frm_c"\) cannot be folded: \{"kind":"malformed","why":".*null.*"\}/],
  },
  {
    name: "a tampered sibling",
    build: answer((r) => (proof(r, 1).path[0]!.sibling = FAKE_SIBLING)),
    status: "fail",
    says: [new RegExp(`${escape(proofOf(1, "frm_a"))} recomputes sha256:[0-9a-f]{64}, not the result_attestation root \\| ${escape(ROOT)} \\| sha256:`)],
  },
  {
    name: "proofs and no root to prove against",
    build: answer((r) => delete r.result_attestation),
    status: "fail",
    says: [has(`${proofOf(0, "frm_c")} recomputes ${ROOT}, not the result_attestation root | a result_attestation to prove against | ${ROOT}`)],
  },
]);

// ---------------------------------------------------------------- S6-signatures

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
  { name: "every signature verifies under the published key", build: answer(), status: "pass", says: [/every attestation signature verifies under its published key \(strict Ed25519\)/] },
  { name: "signature hex in uppercase spells the same bytes", build: answer((r) => (entry(r, 1).attestation!.signature = String(entry(r, 1).attestation!.signature).toUpperCase())), status: "pass" },
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
    status: "fail",
    says: [has(`${frameC} names key_id "canned-ed25519-2", which handshake_ack.attester_keys does not publish | a published key_id | "canned-ed25519-2"`)],
  },
  { name: "no attester_keys at all", build: answer(() => {}, ACK), status: "fail", says: [has('result_attestation names key_id "canned-ed25519-1", which handshake_ack.attester_keys does not publish')] },
  {
    name: "a frame signed by another key",
    build: answer((r) => (entry(r, 1).attestation!.signature = sign(commit(FRAMES[1]!), OTHER_SECRET))),
    status: "fail",
    says: [has('frame_attestations[1] (frame "frm_a"): the signature does not verify under key "canned-ed25519-1" | a valid Ed25519 signature over the signed commitment | bad signature')],
  },
  {
    name: "the root's signature over other bytes",
    build: answer((r) => (r.result_attestation!.signature = sign(merkleRoot(FRAMES.map(commit))))),
    status: "fail",
    says: [has('result_attestation: the signature does not verify under key "canned-ed25519-1"')],
  },
  {
    name: "a small-order public key",
    build: answer(() => {}, keyed({ ...KEY, public_key: `01${"00".repeat(31)}` })),
    status: "fail",
    says: [has(`${frameC}: key "canned-ed25519-1" is refused by a strict verifier: small-order point (8A = identity) | a canonical, full-order Ed25519 public key | small-order point (8A = identity)`)],
  },
  {
    name: "a non-canonical S (S + L)",
    build: answer((r) => (entry(r, 0).attestation!.signature = sPlusL(String(entry(r, 0).attestation!.signature)))),
    status: "fail",
    says: [has(`${frameC}: the signature is refused by a strict verifier: S is not reduced mod L (non-canonical encoding) | a canonical 64-byte Ed25519 signature`)],
  },
  {
    name: "a truncated signature",
    build: answer((r) => (r.result_attestation!.signature = String(r.result_attestation!.signature).slice(0, 126))),
    status: "fail",
    says: [has("result_attestation: the signature is refused by a strict verifier: expected 128 hex digits")],
  },
  {
    name: "a signed_commitment in uppercase hex",
    build: answer((r) => (entry(r, 2).attestation!.signed_commitment = `sha256:${String(entry(r, 2).attestation!.signed_commitment).slice(7).toUpperCase()}`)),
    status: "fail",
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
