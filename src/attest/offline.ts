import { parseUntrusted } from "../protocol/envelope.ts";
import { merkleRoot, rootFromProof, toDigest, type InclusionProof } from "../math/attest.ts";
import { verifyAttestation, type Verdict } from "../math/ed25519.ts";
import { fromNdjson } from "../transcript/file.ts";
import { envelopes } from "../transcript/view.ts";
import { keysOf, type PublishedKey } from "./audit.ts";
import { canonicalOrder, commitmentOf, identityOf } from "./commit.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";

/** One attestation's verdict, as an auditor reads it. */
export interface OfflineVerdict {
  /** Which answer (its line, for a transcript) and which attestation. */
  where: string;
  subject: string;
  verdict: Verdict | { kind: "unknown-key"; key_id: unknown } | { kind: "absent-frame" };
  /** For frame attestations with an inclusion proof: whether it recomputes the signed root, as a kind and in words. */
  proof_kind?: ProofKind;
  proof?: string;
}

export type ProofKind = "recomputes-root" | "other-root" | "unfoldable";

interface Answer {
  where: string;
  result: Obj;
  ack?: Obj;
}

/** The frames answers in a saved file: one frames envelope (JSON), or a cgp-conform transcript (NDJSON). */
export function answersIn(text: string): Answer[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
    const parsed = parseUntrusted(trimmed);
    if (!parsed.ok) throw new Error(`the file is not JSON (${parsed.why})`);
    const env = parsed.value;
    if (!isObj(env) || env.type !== "frames" || !isObj(env.result)) throw new Error("the file is one JSON value, but not a frames envelope");
    return [{ where: "the envelope", result: env.result }];
  }
  const t = fromNdjson(text);
  const out: Answer[] = [];
  const acks = new Map<string, Obj>();
  for (const { e, env } of envelopes(t.events)) {
    if (e.dir !== "recv") continue;
    if (env.type === "handshake_ack") acks.set(e.session, env);
    if (env.type === "frames" && isObj(env.result) && (env.result.frame_attestations !== undefined || env.result.result_attestation !== undefined)) {
      out.push({ where: `line ${e.n}`, result: env.result, ack: acks.get(e.session) });
    }
  }
  return out;
}

function check(expected: Uint8Array, a: Obj, keys: PublishedKey[]): OfflineVerdict["verdict"] {
  const key = keys.find((k) => k.key_id === a.key_id) ?? keys.find((k) => k.key_id === "*");
  if (!key) {
    // The commitment is still compared first: tampering is found with no key at all.
    const v = verifyAttestation({
      expectedCommitment: expected,
      signedCommitment: String(a.signed_commitment),
      algorithm: String(a.algorithm),
      publicKeyHex: "",
      signatureHex: "",
    });
    return v.kind === "commitment-mismatch" || v.kind === "malformed-commitment" || v.kind === "unknown-algorithm"
      ? v
      : { kind: "unknown-key", key_id: a.key_id };
  }
  return verifyAttestation({
    expectedCommitment: expected,
    signedCommitment: String(a.signed_commitment),
    algorithm: String(a.algorithm),
    publicKeyHex: key.public_key,
    signatureHex: String(a.signature),
  });
}

/**
 * Verify every attestation of every answer, offline: recompute each frame's
 * commitment and the result root from the frames in hand, compare them with
 * what was signed, then check each signature. The provider id is the one the
 * attestations name (or the transcript's ack declares).
 */
export function verifyOffline(text: string, extraKeys: PublishedKey[] = []): OfflineVerdict[] {
  const out: OfflineVerdict[] = [];
  for (const { where, result, ack } of answersIn(text)) {
    // A key the auditor gives replaces the published ones: it is the auditor's trust store speaking.
    const keys = extraKeys.length > 0 ? extraKeys : keysOf(ack);
    const frames = Array.isArray(result.frames) ? result.frames.filter(isObj) : [];
    const entries = Array.isArray(result.frame_attestations) ? result.frame_attestations.filter(isObj) : [];
    const declared = isObj(ack?.provider) ? ack.provider.name : undefined;
    const providerId = String(declared ?? entries.map((e) => (isObj(e.frame) ? e.frame.provider_id : undefined)).find((p) => typeof p === "string") ?? "");
    const root = merkleRoot(canonicalOrder(frames, (f) => identityOf(providerId, f)).map((f) => commitmentOf(providerId, f)));
    for (const [i, e] of entries.entries()) {
      const named = isObj(e.frame) ? e.frame : {};
      const frame = frames.find((f) => f.id === named.frame_id && f.content_digest === named.content_digest);
      const subject = `frame_attestations[${i}] frame ${JSON.stringify(named.frame_id)}`;
      if (!frame) {
        out.push({ where, subject, verdict: { kind: "absent-frame" } });
        continue;
      }
      const c = commitmentOf(providerId, frame);
      const v: OfflineVerdict = { where, subject, verdict: isObj(e.attestation) ? check(c, e.attestation, keys) : { kind: "unknown-key", key_id: undefined } };
      if (isObj(e.inclusion_proof)) {
        const r = rootFromProof(c, e.inclusion_proof as unknown as InclusionProof);
        const kind: ProofKind = !r.ok ? "unfoldable" : toDigest(r.root) === toDigest(root) ? "recomputes-root" : "other-root";
        v.proof_kind = kind;
        v.proof = !r.ok
          ? `cannot be folded: ${r.failure.kind}`
          : kind === "recomputes-root"
            ? "recomputes the root of the frames carried"
            : `recomputes ${toDigest(r.root)}, not the root of the frames carried`;
      }
      out.push(v);
    }
    if (isObj(result.result_attestation)) out.push({ where, subject: "result_attestation", verdict: check(root, result.result_attestation, keys) });
  }
  return out;
}

export function describe(v: OfflineVerdict["verdict"]): string {
  switch (v.kind) {
    case "valid":
      return "valid";
    case "commitment-mismatch":
      return `commitment mismatch: the frames in hand give ${v.expected}, the attestation signed ${v.signed} (changed after signing)`;
    case "bad-signature":
      return "bad signature: the commitment matches, the signature does not verify under the key";
    case "unknown-algorithm":
      return `uncheckable: unknown algorithm ${JSON.stringify(v.algorithm)} (F8: not counted as attested)`;
    case "malformed-key":
      return `malformed key: ${v.why}`;
    case "malformed-signature":
      return `malformed signature: ${v.why}`;
    case "malformed-commitment":
      return `malformed commitment: ${v.why}`;
    case "unknown-key":
      return `no key for key_id ${JSON.stringify(v.key_id)}: give one with --key`;
    case "absent-frame":
      return "names a frame the answer does not carry";
  }
}
