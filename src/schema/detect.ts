import { BARE, BRANCHES, isRecord, requiredOf } from "./documents.ts";

/** A document without `type`, placed: judged as `kind`, told by `members`. */
export interface Detected {
  kind: string;
  members: readonly string[];
}

/**
 * The bare kind a document without `type` is, where its shape says so
 * unambiguously: it has every required member of exactly one bare kind. An
 * envelope branch whose required members, `type` aside, are all present counts
 * too (it may be that envelope with its `type` forgotten), so `{"query": …}`
 * is never taken for a Capabilities object. A document with `type` is an
 * envelope: detection never runs on it. `candidates` lists what matched when
 * nothing was chosen (none, or several).
 */
export function detect(doc: unknown): { detected: Detected } | { candidates: string[] } {
  if (!isRecord(doc) || "type" in doc) return { candidates: [] };
  const has = (members: readonly string[]): boolean => members.length > 0 && members.every((m) => m in doc);
  const bare = [...BARE].filter(([, def]) => has(requiredOf(def))).map(([kind]) => kind);
  const envelopes = [...BRANCHES].filter(([, def]) => has(requiredOf(def).filter((m) => m !== "type"))).map(([tag]) => tag);
  if (bare.length === 1 && envelopes.length === 0) return { detected: { kind: bare[0]!, members: requiredOf(BARE.get(bare[0]!)!) } };
  return { candidates: [...bare, ...envelopes] };
}
