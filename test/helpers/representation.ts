/** Canned frames of each representation, and the probes the representation checks (P1–P5) read. */
import { budgetTokens } from "../../src/math/budget.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { REPRESENTATIONS } from "../../src/protocol/caps.ts";
import { BUDGET_SQUEEZE, HANDSHAKE, preferStep, REPRESENTATIONS_QUERY, SAMPLE_QUERY } from "../../src/protocol/probes.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "./transcript.ts";

export type Rep = (typeof REPRESENTATIONS)[number];

export const SOURCE = "The whole source document, of which a compact frame carries a distillation.\n".repeat(8);
const HANDLE = (id: string) => ({ provider_id: "canned", uri: `cgp://canned/source/${id}` });

export const full = (over: Record<string, unknown> = {}) => frame({ id: "frm_full", ...over });
export const compact = (over: Record<string, unknown> = {}) =>
  frame({
    id: "frm_compact",
    representation: "compact",
    content: "abcd",
    token_cost: 1,
    content_digest: digestOfText("abcd"),
    canonical_content_hash: digestOfText(SOURCE),
    canonical_token_cost: budgetTokens(SOURCE),
    transform: { method: "truncate", implementation: "canned", version: "1" },
    content_ref: HANDLE("frm_compact"),
    ...over,
  });
export const reference = (over: Record<string, unknown> = {}) =>
  frame({
    id: "frm_ref",
    representation: "reference",
    content: undefined,
    token_cost: 0,
    canonical_content_hash: digestOfText(SOURCE),
    content_ref: HANDLE("frm_ref"),
    ...over,
  });

export const advertising = (representations: Rep[] | undefined, resolve?: boolean): object => ({
  ...ACK,
  capabilities: { query: { kinds: [] }, correlation: true, ...(representations ? { representations } : {}), ...(resolve === undefined ? {} : { resolve }) },
});

/** One prefer-<r> query of probe representations, answered with `reply`. */
export function preferring(b: TranscriptBuilder, r: Rep, reply: object): TranscriptBuilder {
  return b.send(preferStep(r), query(`prefer-${r}`, { representation_preferences: [r] })).recv(reply);
}

/** The shared session's handshake (2–3), sample-query serving `sample` (4/5), and budget-squeeze's first query (6). */
function sampled(ack: object, sample: object[]): TranscriptBuilder {
  return tx()
    .probe(HANDSHAKE.name, "shared")
    .handshake(ack)
    .probe(SAMPLE_QUERY.name, "shared")
    .send(SAMPLE_QUERY.steps.sample, query("sample-1"))
    .recv(frames("sample-1", sample))
    .probe(BUDGET_SQUEEZE.name, "shared")
    .send(BUDGET_SQUEEZE.steps.generous, query("squeeze-1"));
}

/**
 * The probes P1–P4 read, in the shared session: handshake 2–3, sample-query
 * 4/5, budget-squeeze 6/7, then one prefer-<r> query per representation given
 * (8/9, 10/11, …) in the order full, compact, reference.
 */
export function shapes(sample: object[], prefer: Partial<Record<Rep, object[]>> = {}): () => TranscriptBuilder {
  return () => {
    const b = sampled(advertising(["full", "compact", "reference"], true), sample)
      .recv(frames("squeeze-1", []))
      .probe(REPRESENTATIONS_QUERY.name, "shared");
    for (const r of REPRESENTATIONS.filter((x) => prefer[x])) preferring(b, r, frames(`prefer-${r}`, prefer[r]!));
    return b;
  };
}

/** Sample-query serves `sample`, then budget-squeeze's first query (line 6) is never answered. */
export const unanswered = (sample: object[]) => (): TranscriptBuilder => sampled(ACK, sample).note("timeout", { waitedMs: 800, expecting: "a reply" });

/** How evidence names the first frame of the sample-query answer (a regexp source). */
export const at5 = (id: string) => `frame "${id}" \\(result\\.frames\\[0\\], line 5\\)`;
