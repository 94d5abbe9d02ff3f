import { chainHead, compareIdentity, frameCommitment, type FrameIdentity, type ProvenanceLink } from "../math/attest.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";

const FIELDS = ["uri", "range", "digest", "method", "by"] as const;

/** A frame's provenance as the typed fields §6.5.1 encodes; absent or null is None. */
export function linksOf(frame: Obj): ProvenanceLink[] {
  const prov = Array.isArray(frame.provenance) ? frame.provenance.filter(isObj) : [];
  return prov.map((l) => {
    const link: ProvenanceLink = { type: String(l.type) };
    for (const k of FIELDS) if (typeof l[k] === "string") link[k] = l[k] as string;
    return link;
  });
}

/** §6.3: the frame's identity, with the handshake-declared provider name as provider id (§6.5.2). */
export function identityOf(providerId: string, frame: Obj): FrameIdentity {
  return {
    provider_id: providerId,
    frame_id: String(frame.id),
    ...(typeof frame.content_digest === "string" ? { content_digest: frame.content_digest } : {}),
  };
}

/** §6.5.2's frame_commitment, recomputed from the frame in hand. */
export function commitmentOf(providerId: string, frame: Obj): Uint8Array {
  const id = identityOf(providerId, frame);
  return frameCommitment(id.provider_id, id.frame_id, id.content_digest, chainHead(linksOf(frame)));
}

/** The frames in §6.3's canonical order (provider id, frame id, content_digest; absent first). */
export function canonicalOrder<T>(items: readonly T[], identity: (t: T) => FrameIdentity): T[] {
  return [...items].sort((a, b) => compareIdentity(identity(a), identity(b)));
}
