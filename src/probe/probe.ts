import type { Session } from "./session.ts";
import { isSyncAnswer, type Obj } from "../protocol/envelope.ts";
import { GENEROUS, type Depth, type ProbeSpec } from "../protocol/probes.ts";

export interface ProbeContext {
  /** The session's handshake_ack (present: probes run only after one). */
  ack: Obj | undefined;
  /** The provider declared capabilities.correlation, so requests may carry an id. */
  correlation: boolean;
  /** How long a provider may take to exit after shutdown. */
  graceMs: number;
  transport: "stdio" | "http";
  /** How many derived stimuli to send (--depth). */
  depth: Depth;
}

/** A named, scripted exchange, as its spec declares it. A probe only talks and records; it never scores. */
export interface Probe extends ProbeSpec {
  run(s: Session, ctx: ProbeContext): Promise<void>;
}

export function defineProbe(p: Probe): Probe {
  return p;
}

export { GENEROUS };

/** A query envelope; the id is attached only when correlation was negotiated (H4 host rule). */
export function query(ctx: ProbeContext, id: string, fields: Obj): Obj {
  const q: Obj = {
    goal: "cgp-conform probe: return your most relevant frames",
    query_text: "conformance probe",
    kinds: [],
    anchors: [],
    ...GENEROUS,
    ...fields,
  };
  return { type: "query", ...(ctx.correlation ? { id } : {}), query: q };
}

/**
 * Read replies until the answer to the request arrives. Requests are sent in
 * lock-step, so the next reply of an answering type is the answer whatever
 * its id says: H4 judges the id, and a provider that mangles ids does not
 * stall every later probe. Whatever arrives before it stays recorded.
 */
export async function awaitAnswer(s: Session, id: string, types: readonly string[] = ["frames", "error"]): Promise<Obj | undefined> {
  // One deadline for the whole exchange, however many non-answers arrive first.
  const until = s.deadline();
  const seq = s.lastSeq;
  for (;;) {
    const env = await s.next(`a reply to request ${id}`, until, seq);
    if (!env) return undefined;
    // Over HTTP the response to the request is its answer, whatever its type; on stdio, the next reply of an answering type.
    const paired = s.answers(seq);
    if (paired === false || (paired === undefined && s.answersAnother(id))) continue;
    if (paired || types.includes(env.type as string)) return env;
  }
}

/**
 * A valid query sent right after a stimulus, to learn whether the provider is
 * still alive. Without correlation only a frames envelope counts as its
 * answer, so an error replying to the stimulus is not mistaken for it.
 */
export async function awaitSync(s: Session, ctx: ProbeContext, id: string): Promise<Obj | undefined> {
  const until = s.deadline();
  const seq = s.lastSeq;
  for (;;) {
    const env = await s.next(`a reply to request ${id}`, until, seq);
    if (!env) return undefined;
    // Over HTTP the response to the query is its answer, whatever it says; on stdio, order and id decide.
    const paired = s.answers(seq);
    if (paired ?? (!s.answersAnother(id) && isSyncAnswer(env, ctx.correlation ? id : undefined))) return env;
  }
}
