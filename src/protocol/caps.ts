import { isObj, type Obj } from "./envelope.ts";

/** Read-only accessors for what a handshake_ack declares. */
export function capabilities(ack: Obj | undefined): Obj {
  return isObj(ack?.capabilities) ? ack.capabilities : {};
}

export function declaredKinds(ack: Obj | undefined): string[] {
  const q = capabilities(ack).query;
  return isObj(q) && Array.isArray(q.kinds) ? q.kinds.filter((k): k is string => typeof k === "string") : [];
}

export function providerName(ack: Obj | undefined): string | undefined {
  const p = isObj(ack?.provider) ? ack.provider : undefined;
  return typeof p?.name === "string" ? p.name : undefined;
}

/** The dimension an embeddings_fingerprint declares, if it follows <model-id>/<dimensions>[/<normalization>]. */
/** §5's fingerprint grammar, <model-id>/<dimensions>[/<normalization>], the dimensions in decimal digits (as the schema spells it). */
export const FINGERPRINT_GRAMMAR = /^[^/]+\/([0-9]+)(\/[^/]+)?$/;

export function fingerprintDims(fp: unknown): number | undefined {
  if (typeof fp !== "string") return undefined;
  const m = FINGERPRINT_GRAMMAR.exec(fp);
  const dims = m ? Number(m[1]) : 0;
  return dims > 0 && Number.isSafeInteger(dims) ? dims : undefined;
}

export const BASE_KINDS = ["snippet", "symbol", "fact", "doc", "memory", "episode", "graph"] as const;
export const REPRESENTATIONS = ["full", "compact", "reference"] as const;
