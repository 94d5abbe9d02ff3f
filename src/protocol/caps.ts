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
export function fingerprintDims(fp: unknown): number | undefined {
  if (typeof fp !== "string") return undefined;
  const m = /^[^/]+\/([1-9][0-9]*)(\/[^/]+)?$/.exec(fp);
  return m ? Number(m[1]) : undefined;
}

export const BASE_KINDS = ["snippet", "symbol", "fact", "doc", "memory", "episode", "graph"] as const;
export const REPRESENTATIONS = ["full", "compact", "reference"] as const;
