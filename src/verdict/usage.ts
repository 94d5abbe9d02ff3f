import { identityOf } from "../attest/commit.ts";
import type { FrameIdentity } from "../math/attest.ts";
import type { Transcript } from "../transcript/types.ts";
import { envelopes } from "../transcript/view.ts";
import { framesIn, isObj, type Obj } from "../protocol/envelope.ts";

/**
 * UR1 (context-reuse §2): "A host MUST be able to produce a usage report for
 * any query it executed, whose budget_consumed equals the summed token_cost of
 * the served frames it reports." cgp-conform is a host: this is its report for
 * each query the run executed, frames named by their §6.3 identity.
 */
export interface UsageReport {
  /** Where in the transcript: the query's line and its answer's. */
  query_line: number;
  answer_line: number;
  budget_requested: number;
  budget_consumed: number;
  as_of: string;
  providers: Array<{
    provider_id: string;
    frames_served: number;
    /** Dropped by the host's budget audit (B2): a provider over max_tokens (B1) or max_frames (B4) has every frame of that answer dropped. */
    frames_rejected: number;
    token_cost: number;
    served_frames: Array<{ frame: FrameIdentity; token_cost: number }>;
  }>;
}

const cost = (f: Obj): number => (typeof f.token_cost === "number" && Number.isFinite(f.token_cost) ? f.token_cost : 0);

/** The arithmetic identity: budget_consumed = Σ providers[].token_cost = Σ served_frames[].token_cost. */
export function isConsistent(r: UsageReport): boolean {
  const byProvider = r.providers.reduce((a, p) => a + p.token_cost, 0);
  const byFrame = r.providers.reduce((a, p) => a + p.served_frames.reduce((b, f) => b + f.token_cost, 0), 0);
  return r.budget_consumed === byProvider && byProvider === byFrame && r.providers.every((p) => p.frames_served === p.served_frames.length);
}

/** One usage report per query the run sent and got frames for. */
export function usageReports(t: Transcript): UsageReport[] {
  const out: UsageReport[] = [];
  const names = new Map<string, string>();
  const pending = new Map<string, { line: number; step: string; query: Obj }>();
  for (const { e, env } of envelopes(t.events)) {
    const key = `${e.session}\u0000${e.step}`;
    if (e.dir === "send" && env.type === "query" && isObj(env.query)) pending.set(key, { line: e.n, step: e.step, query: env.query });
    if (e.dir === "recv" && env.type === "handshake_ack" && isObj(env.provider) && typeof env.provider.name === "string")
      names.set(e.session, env.provider.name);
    if (e.dir !== "recv" || env.type !== "frames") continue;
    const q = pending.get(key);
    if (!q) continue;
    pending.delete(key);
    const frames = framesIn(env);
    const maxTokens = typeof q.query.max_tokens === "number" ? q.query.max_tokens : 0;
    const maxFrames = typeof q.query.max_frames === "number" ? q.query.max_frames : Infinity;
    const overBudget = frames.reduce((a, f) => a + cost(f), 0) > maxTokens || frames.length > maxFrames;
    const provider = names.get(e.session) ?? "";
    const served = overBudget ? [] : frames.map((f) => ({ frame: identityOf(provider, f), token_cost: cost(f) }));
    const tokens = served.reduce((a, f) => a + f.token_cost, 0);
    out.push({
      query_line: q.line,
      answer_line: e.n,
      budget_requested: maxTokens,
      budget_consumed: tokens,
      as_of: t.header.started_at,
      providers: [
        { provider_id: provider, frames_served: served.length, frames_rejected: overBudget ? frames.length : 0, token_cost: tokens, served_frames: served },
      ],
    });
  }
  return out;
}
