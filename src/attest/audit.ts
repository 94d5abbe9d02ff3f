import { hexToBytes } from "@noble/hashes/utils.js";
import {
  fromDigest,
  merkleLeaf,
  merkleNode,
  merkleRoot,
  rootFromProof,
  toDigest,
  type FrameIdentity,
  type InclusionProof,
  type ProofFailure,
} from "../math/attest.ts";
import { verifyAttestation, type Verdict } from "../math/ed25519.ts";
import { ED25519 } from "../math/ed25519-sign.ts";
import { canonicalOrder, commitmentOf, identityOf } from "./commit.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";
import { envelopeSchemas } from "../schema/documents.ts";

/** The members an attestation travels in; none of them may sit inside a frame, or a member the schema defines of one (F6). */
export const ATTESTATION_MEMBERS = ["attestation", "attestations", "frame_attestations", "result_attestation", "signed_commitment", "inclusion_proof"];

/** What a result root that is not the canonical one equals: the frames in arrival order, RFC 6962 with the last leaf duplicated, or neither (another set). */
export type RootDiagnosis = "arrival-order" | "duplicate-last-leaf" | "other-set";

export interface PublishedKey {
  key_id: string;
  algorithm: string;
  public_key: string;
}

/** Keys from handshake_ack.attester_keys, plus any the auditor supplies (a trust store answer). */
export function keysOf(ack: Obj | undefined, extra: PublishedKey[] = []): PublishedKey[] {
  const published = Array.isArray(ack?.attester_keys) ? ack.attester_keys.filter(isObj) : [];
  return [
    ...published
      .filter((k) => typeof k.key_id === "string" && typeof k.public_key === "string")
      .map((k) => ({ key_id: k.key_id as string, algorithm: String(k.algorithm), public_key: k.public_key as string })),
    ...extra,
  ];
}

export type SignatureVerdict = Verdict | { kind: "unknown-key"; key_id: unknown } | { kind: "not-signed" };

export interface EntryAudit {
  /** Position in result.frame_attestations. */
  index: number;
  named: Obj;
  /** F11: the identity is named in full (provider_id, frame_id, and content_digest when the frame has one). */
  incomplete: string[];
  /** Index in result.frames of the frame it names, if the result carries it. */
  frameIndex?: number;
  /** F7: signed vs recomputed frame commitment (when an attestation and its frame are present). */
  commitment?: { expected: string; signed: unknown };
  signature?: SignatureVerdict;
  keyId?: unknown;
  proof?: { ok: true; matches: boolean; root: string } | { ok: false; failure: ProofFailure | { kind: "malformed"; why: string } };
  /** F13: the proof's leaf_count against the number of frames carried. */
  leafCount?: { declared: unknown; frames: number };
}

export interface ResultAudit {
  signed: unknown;
  /** F12: the root over exactly result.frames in canonical order (leaves: the signed per-frame commitments where given). */
  expected: string;
  /** When the root differs, what it does equal, if anything we can name: F12's words say it. */
  diagnosis?: RootDiagnosis;
  signature: SignatureVerdict;
  keyId: unknown;
}

export interface FramesAudit {
  providerId: string;
  /** F6: frames carrying an attestation member, and where. */
  inside: Array<{ frameIndex: number; path: string }>;
  entries: EntryAudit[];
  result?: ResultAudit;
  /** The result carried any attestation at all. */
  attested: boolean;
}

const DEFS = envelopeSchemas.lint.$defs as Record<string, unknown>;

function deref(node: unknown): Obj | undefined {
  let n = node;
  for (let hops = 0; isObj(n) && typeof n.$ref === "string" && hops < 16; hops++) n = DEFS[n.$ref.replace("#/$defs/", "")];
  return isObj(n) ? n : undefined;
}

/**
 * Lookups of the schema, made once per (schemas, key) however many frames are
 * walked: the arrays returned are cached too, so a walk one level down finds
 * its own lookups cached under them.
 */
const MEMBERS = new WeakMap<Obj[], Map<string, Obj[]>>();
const ITEMS = new WeakMap<Obj[], Obj[]>();

/** The subschemas that describe member `key` of an object these schemas describe: their properties, and their branches' (allOf, then). */
function memberSchemas(schemas: Obj[], key: string): Obj[] {
  let byKey = MEMBERS.get(schemas);
  if (!byKey) MEMBERS.set(schemas, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) byKey.set(key, (out = lookupMember(schemas, key)));
  return out;
}

function lookupMember(schemas: Obj[], key: string): Obj[] {
  return schemas.flatMap((node) => {
    const n = deref(node);
    if (!n) return [];
    const own = isObj(n.properties) && Object.hasOwn(n.properties, key) ? [deref(n.properties[key])] : [];
    const branches = Array.isArray(n.allOf) ? n.allOf.flatMap((b) => [b, isObj(b) ? b.then : undefined]).filter(isObj) : [];
    return [...own, ...lookupMember(branches, key)].filter((x): x is Obj => x !== undefined);
  });
}

function itemSchemas(schemas: Obj[]): Obj[] {
  let out = ITEMS.get(schemas);
  if (!out)
    ITEMS.set(
      schemas,
      (out = schemas
        .map(deref)
        .flatMap((n) => (n && n.items !== undefined ? [deref(n.items)] : []))
        .filter(isObj)),
    );
  return out;
}

/**
 * Every path inside `v` at which an attestation sits (F6). Where the schema
 * defines the enclosing object (the frame, its provenance links, relations,
 * handles), a member named as an attestation travels counts: those names are
 * the protocol's there. Inside a member no schema defines (a vendor extension,
 * which U1 has a receiver ignore), a name means nothing: only an object
 * carrying a signed_commitment, an attestation by its shape, counts.
 * `schemas` is what describes `v`: [] for defined but unstructured, undefined
 * for undefined.
 */
function attestationPaths(v: unknown, at: string, schemas: Obj[] | undefined): string[] {
  if (Array.isArray(v)) {
    const items = schemas === undefined ? undefined : itemSchemas(schemas);
    return v.flatMap((x, i) => attestationPaths(x, `${at}/${i}`, items));
  }
  if (!isObj(v)) return [];
  const shaped = schemas === undefined && v.signed_commitment !== undefined ? [at] : [];
  return [
    ...shaped,
    ...Object.entries(v).flatMap(([k, x]) => {
      if (schemas !== undefined && ATTESTATION_MEMBERS.includes(k)) return [`${at}/${k}`, ...attestationPaths(x, `${at}/${k}`, [])];
      const sub = schemas === undefined ? undefined : schemas.length === 0 ? [] : memberSchemas(schemas, k);
      // A member the schema does not define for this object is an extension: unknown, whatever it is called.
      return attestationPaths(x, `${at}/${k}`, sub !== undefined && schemas!.length > 0 && sub.length === 0 ? undefined : sub);
    }),
  ];
}

const FRAME_SCHEMA = [{ $ref: "#/$defs/ContextFrame" }];

function signatureOf(a: Obj, keys: PublishedKey[]): SignatureVerdict {
  const signed = typeof a.signed_commitment === "string" ? fromDigest(a.signed_commitment) : undefined;
  if (!signed?.ok) return { kind: "malformed-commitment", why: signed ? signed.why : "signed_commitment is not a string" };
  if (a.signature === undefined) return { kind: "not-signed" };
  // F8: an algorithm we do not recognise is uncheckable, whichever key it names.
  if (a.algorithm !== ED25519) return { kind: "unknown-algorithm", algorithm: String(a.algorithm) };
  // "*" is a key the auditor supplies for every key_id (cgp-conform attest verify --key).
  const key = keys.find((k) => k.key_id === a.key_id) ?? keys.find((k) => k.key_id === "*");
  if (!key) return { kind: "unknown-key", key_id: a.key_id };
  // The commitment itself is judged by F7/F12; here only the signature over what was signed.
  return verifyAttestation({
    expectedCommitment: signed.bytes,
    signedCommitment: a.signed_commitment as string,
    algorithm: String(a.algorithm),
    publicKeyHex: key.public_key,
    signatureHex: String(a.signature),
  });
}

/** A frame identity as a map key; an absent content_digest is null, which no string digest can equal. */
function identityKey(id: FrameIdentity): string {
  return JSON.stringify([id.provider_id, id.frame_id, id.content_digest ?? null]);
}

/** The first frame an entry names exactly (provider_id, frame_id, content_digest all equal, absent only to absent), or -1. */
function indexOfIdentity(named: Obj, byIdentity: ReadonlyMap<string, number>): number {
  const { provider_id: p, frame_id: f, content_digest: d } = named;
  if (typeof p !== "string" || typeof f !== "string" || (d !== undefined && typeof d !== "string")) return -1;
  return byIdentity.get(identityKey({ provider_id: p, frame_id: f, ...(d !== undefined ? { content_digest: d } : {}) })) ?? -1;
}

/** The root a provider would get with the "duplicate the last leaf on an odd level" shortcut. */
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

/**
 * Audit the attestations of one frames result: pure, offline, from the
 * frames in hand, the provider's declared name and the published keys.
 */
export function auditFrames(providerId: string, result: Obj, keys: PublishedKey[]): FramesAudit {
  const frames = Array.isArray(result.frames) ? result.frames.filter(isObj) : [];
  const inside = frames.flatMap((f, i) => attestationPaths(f, "", FRAME_SCHEMA).map((path) => ({ frameIndex: i, path })));
  const identities = frames.map((f) => identityOf(providerId, f));
  const rawEntries = Array.isArray(result.frame_attestations) ? result.frame_attestations : [];
  // An unsigned answer has nothing to recompute: only F6's scan applies to it.
  if (rawEntries.length === 0 && !isObj(result.result_attestation)) return { providerId, inside, entries: [], attested: inside.length > 0 };
  // A frame holding a lone UTF-16 surrogate (in its id, a provenance uri…) has no UTF-8 bytes, so no commitment:
  // it is judged as one whose attestation cannot match, never allowed to stop the audit.
  const uncomputable = new Map<number, string>();
  const recomputed = frames.map((f, i) => {
    try {
      return commitmentOf(providerId, f);
    } catch (e) {
      uncomputable.set(i, (e as Error).message);
      return new Uint8Array(32);
    }
  });
  // Entries find their frames by key, so a large signed answer is audited in linear time.
  const byIdentity = new Map<string, number>();
  for (const [i, id] of identities.entries()) {
    const k = identityKey(id);
    if (!byIdentity.has(k)) byIdentity.set(k, i);
  }
  const byFrameId = new Map<unknown, number>();
  for (const [i, f] of frames.entries()) if (!byFrameId.has(f.id)) byFrameId.set(f.id, i);
  const signedLeaf = new Map<number, Uint8Array>();

  const entries = rawEntries.map((raw, index): EntryAudit => {
    const entry = isObj(raw) ? raw : {};
    const named = isObj(entry.frame) ? entry.frame : {};
    const incomplete = ["provider_id", "frame_id"].filter((k) => typeof named[k] !== "string");
    const frameIndex = indexOfIdentity(named, byIdentity);
    if (frameIndex === -1 && typeof named.frame_id === "string") {
      const byId = byFrameId.get(named.frame_id) ?? -1;
      if (byId !== -1 && typeof frames[byId]!.content_digest === "string" && named.content_digest === undefined) incomplete.push("content_digest");
    }
    const out: EntryAudit = { index, named, incomplete, ...(frameIndex === -1 ? {} : { frameIndex }) };
    const a = isObj(entry.attestation) ? entry.attestation : undefined;
    if (a) {
      out.keyId = a.key_id;
      out.signature = signatureOf(a, keys);
      if (frameIndex !== -1) {
        const why = uncomputable.get(frameIndex);
        out.commitment = { expected: why === undefined ? toDigest(recomputed[frameIndex]!) : `no commitment (${why})`, signed: a.signed_commitment };
        const parsed = typeof a.signed_commitment === "string" ? fromDigest(a.signed_commitment) : undefined;
        if (parsed?.ok) signedLeaf.set(frameIndex, parsed.bytes);
      }
    }
    return out;
  });

  // F12 judges the set, the order and the tree; the leaf values are F7's, so a
  // frame's own signed commitment stands in for its leaf where one was given.
  const leaf = (i: number): Uint8Array => signedLeaf.get(i) ?? recomputed[i]!;
  const order = canonicalOrder(
    frames.map((_, i) => i),
    (i) => identities[i]!,
  );
  const root = merkleRoot(order.map(leaf));

  for (const e of entries) {
    const raw = rawEntries[e.index];
    const proof = isObj(raw) && isObj(raw.inclusion_proof) ? (raw.inclusion_proof as unknown as InclusionProof) : undefined;
    if (!proof || e.frameIndex === undefined) continue;
    e.leafCount = { declared: proof.leaf_count, frames: frames.length };
    let r;
    try {
      r = rootFromProof(leaf(e.frameIndex), proof);
    } catch (err) {
      e.proof = { ok: false, failure: { kind: "malformed", why: (err as Error).message } };
      continue;
    }
    const signedRoot = isObj(result.result_attestation) ? result.result_attestation.signed_commitment : undefined;
    e.proof = r.ok ? { ok: true, root: toDigest(r.root), matches: toDigest(r.root) === signedRoot } : r;
  }

  let resultAudit: ResultAudit | undefined;
  if (isObj(result.result_attestation)) {
    const ra = result.result_attestation;
    const expected = toDigest(root);
    let diagnosis: RootDiagnosis | undefined;
    if (ra.signed_commitment !== expected && order.length > 0) {
      const inArrival = toDigest(merkleRoot(frames.map((_, i) => leaf(i))));
      const duplicated = toDigest(duplicateLastLeafRoot(order.map(leaf)));
      if (ra.signed_commitment === inArrival) diagnosis = "arrival-order";
      else if (ra.signed_commitment === duplicated) diagnosis = "duplicate-last-leaf";
      else diagnosis = "other-set";
    }
    resultAudit = { signed: ra.signed_commitment, expected, ...(diagnosis ? { diagnosis } : {}), signature: signatureOf(ra, keys), keyId: ra.key_id };
  }

  return {
    providerId,
    inside,
    entries,
    ...(resultAudit ? { result: resultAudit } : {}),
    attested: rawEntries.length > 0 || resultAudit !== undefined || inside.length > 0,
  };
}

/** Hex of a 32-byte key given on the command line, checked for shape only. */
export function keyFromHex(hex: string): PublishedKey {
  hexToBytes(hex.toLowerCase());
  return { key_id: "*", algorithm: "ed25519", public_key: hex };
}
