import { capabilities, fingerprintDims } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { EMBEDDING, EMBEDDING_MISMATCH } from "../protocol/probes.ts";

/** A unit vector of the given length: well-formed for any L2-normalised space. */
export const unitVector = (dims: number): number[] => Array.from({ length: dims }, (_, i) => (i === 0 ? 1 : 0));

/** E1: a query whose embedding has exactly the declared dimension. */
export const embeddingOk = defineProbe({
  ...EMBEDDING,
  async run(s, ctx) {
    const dims = fingerprintDims(capabilities(ctx.ack).embeddings_fingerprint);
    if (dims === undefined) return;
    s.send(EMBEDDING.steps.ok, query(ctx, "embed-1", { embedding: unitVector(dims) }));
    await s.reply();
  },
});

/** E1's SHOULD: a vector whose length contradicts the declared dimension gets bad_request. */
export const embeddingMismatch = defineProbe({
  ...EMBEDDING_MISMATCH,
  async run(s, ctx) {
    const dims = fingerprintDims(capabilities(ctx.ack).embeddings_fingerprint);
    if (dims === undefined) return;
    // A query always gets an answer, so this one is awaited in lock-step: its reply cannot be mistaken for the next query's.
    s.send(EMBEDDING_MISMATCH.steps.wrong, query(ctx, "embed-2", { embedding: unitVector(dims + 3) }));
    if (!(await s.reply()) && s.stalled) return;
    s.send(EMBEDDING_MISMATCH.steps.after, query(ctx, "embed-sync", {}), undefined, { chase: true });
    await s.reply();
  },
});
