/**
 * Canned attested answers for the attestation checks (F6, F7, F11, F12, F13,
 * S6-signatures): three frames honestly signed per frame and at the root,
 * and `answer`, which serves them to sample-query after an edit breaks one thing.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { canonicalOrder, commitmentOf, identityOf } from "../../src/attest/commit.ts";
import { inclusionProof, merkleRoot, toDigest, type InclusionProof } from "../../src/math/attest.ts";
import { budgetTokens } from "../../src/math/budget.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { publicKeyOf, signCommitment } from "../../src/math/ed25519-sign.ts";
import { AS_OF, EMBEDDING, GRAPH_ANCHORS, KINDS_QUERY, REPRESENTATIONS_QUERY, SAMPLE_QUERY, VERIFY } from "../../src/protocol/probes.ts";
import { ACK, emptySqueeze, frame, query, served, type TranscriptBuilder } from "./transcript.ts";

export type Obj = Record<string, unknown>;

/** The provider id every commitment binds: the ack's provider.name (§6.5.2). */
export const PROVIDER = ACK.provider.name;
export const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
export const KEY = { key_id: "canned-ed25519-1", algorithm: "ed25519", public_key: bytesToHex(publicKeyOf(SECRET)) };
export const KEYED_ACK = { ...ACK, attester_keys: [KEY] };

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
export const FRAMES = [doc("frm_c", "gamma", 0.9), doc("frm_a", "alpha", 0.7), doc("frm_b", "beta", 0.5)];
/** A frame the provider considered and truncated away. */
export const DROPPED = doc("frm_d", "delta", 0.2);

export const commit = (f: Obj): Uint8Array => commitmentOf(PROVIDER, f);
export const canonical = (fs: Obj[]): Obj[] => canonicalOrder(fs, (f) => identityOf(PROVIDER, f));
export const sign = (c: Uint8Array, secret = SECRET): string => bytesToHex(signCommitment(secret, c));

export function attestation(c: Uint8Array, over: Obj = {}): Obj {
  return {
    signed_commitment: toDigest(c),
    key_id: KEY.key_id,
    algorithm: "ed25519",
    attester_id: PROVIDER,
    signature: sign(c),
    issued_at: "2026-08-29T12:00:00Z",
    ...over,
  };
}

export interface Entry {
  frame: Obj;
  attestation?: Obj;
  inclusion_proof?: InclusionProof;
}
export interface Signed {
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
export function signed(frames: Obj[] = FRAMES, tree: Obj[] = frames): Signed {
  const ordered = canonical(tree);
  const leaves = ordered.map(commit);
  return {
    frames,
    truncated: false,
    frame_attestations: frames.map((f) => ({
      frame: { ...identityOf(PROVIDER, f) },
      attestation: attestation(commit(f)),
      inclusion_proof: inclusionProof(
        leaves,
        ordered.findIndex((g) => g.id === f.id),
      ),
    })),
    result_attestation: attestation(merkleRoot(leaves)),
  };
}

export const SIGNED = signed();
export const ROOT = String(SIGNED.result_attestation!.signed_commitment);
export const entry = (r: Signed, i: number): Entry => r.frame_attestations![i]!;

/**
 * The answer as sample-query receives it (line 9; budget-squeeze's empty
 * answer before it is unsigned), after `edit` breaks one thing.
 */
export function answer(edit: (r: Signed) => void = () => {}, ack: object = KEYED_ACK, base: Signed = SIGNED): () => TranscriptBuilder {
  return () => {
    const r = structuredClone(base);
    edit(r);
    return quiet(
      emptySqueeze().probe(SAMPLE_QUERY.name).handshake(ack).send(SAMPLE_QUERY.steps.sample, query("s1")).recv({ type: "frames", id: "s1", result: r }),
      ack,
    );
  };
}

/** The other querying probes the attestation checks read, run and silent (after the lines the tests name). */
export function quiet(b: TranscriptBuilder, ack: object = KEYED_ACK): TranscriptBuilder {
  for (const p of [KINDS_QUERY, AS_OF, GRAPH_ANCHORS, REPRESENTATIONS_QUERY, EMBEDDING, VERIFY]) b.probe(p.name).handshake(ack);
  return b;
}

/** The same frames, no attestation anywhere. */
export const unsigned = (): TranscriptBuilder => quiet(served(FRAMES));
/** A result_attestation and no frame_attestations. */
export const rootOnly = answer((r) => delete r.frame_attestations);

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** The evidence text contains exactly this. */
export const has = (s: string): RegExp => new RegExp(escape(s));
