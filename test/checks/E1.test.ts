import E1 from "../../checks/E1.ts";
import { unitVector } from "../../src/probe/embedding.ts";
import { fingerprintDims } from "../../src/protocol/caps.ts";
import { EMBEDDING, EMBEDDING_MISMATCH, HANDSHAKE } from "../../src/protocol/probes.ts";
import { acking, dies, timeout } from "../helpers/capabilities.ts";
import { runCases } from "../helpers/cases.ts";
import { frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

const FP = "bge-small-en-v1.5/384/l2";
const badRequest = (id?: string): object => ({
  type: "error",
  ...(id ? { id } : {}),
  code: "bad_request",
  message: "query.embedding has 387 dimensions; 384 declared",
});
const noId = (env: object): object => Object.fromEntries(Object.entries(env).filter(([k]) => k !== "id"));

interface EmbeddingRun {
  fp?: unknown;
  correlation?: boolean;
  /** The answer to the embedding of the declared dimension; null: none. */
  ok?: object | null;
  /** The answer to the over-long embedding; null: a timeout; "exit": the provider dies. */
  wrong?: object | null | "exit";
  /** The sync query's answer; null: a timeout. */
  sync?: object | null;
}

/**
 * Probes embedding (shared; handshake 2–3, embedding-ok 4/5) and
 * embedding-mismatch (its own session: handshake 6–7, embedding-wrong 8 and
 * its answer, awaited in lock-step, then after-embedding-wrong and its answer).
 */
function embedding(o: EmbeddingRun = {}): () => TranscriptBuilder {
  return () => {
    const fp = "fp" in o ? o.fp : FP;
    const corr = o.correlation ?? true;
    const ack = acking({ correlation: corr, ...(fp === undefined ? {} : { embeddings_fingerprint: fp }) });
    const q = (id: string, fields: Record<string, unknown> = {}): object => (corr ? query(id, fields) : noId(query(id, fields)));
    const answer = (id: string): object => (corr ? frames(id, [frame()]) : noId(frames(id, [frame()])));
    const dims = fingerprintDims(fp);
    const b = tx().probe(HANDSHAKE.name, "shared").handshake(ack).probe(EMBEDDING.name, "shared");
    if (dims !== undefined) {
      b.send(EMBEDDING.steps.ok, q("embed-1", { embedding: unitVector(dims) }));
      if (o.ok === null) timeout(b);
      else b.recv(o.ok ?? answer("embed-1"));
    }
    b.probe(EMBEDDING_MISMATCH.name).handshake(ack);
    if (dims === undefined) return b;
    b.send(EMBEDDING_MISMATCH.steps.wrong, q("embed-2", { embedding: unitVector(dims + 3) }));
    if (o.wrong === null) return timeout(b);
    if (o.wrong === "exit") return dies(b);
    b.recv(o.wrong ?? (corr ? badRequest("embed-2") : badRequest()));
    b.send(EMBEDDING_MISMATCH.steps.after, q("embed-sync"));
    if (o.sync === null) return timeout(b);
    return b.recv(o.sync ?? answer("embed-sync"));
  };
}

runCases(E1, [
  {
    name: "a declared fingerprint, honoured both ways",
    build: embedding(),
    status: "pass",
    codes: ["E1.fingerprint", "E1.served", "E1.mismatch-refused"],
    says: [
      /embeddings_fingerprint "bge-small-en-v1\.5\/384\/l2" declares 384 dimensions/,
      /a 384-dimension embedding was answered with frames/,
      /an embedding of 387 dimensions got error bad_request/,
    ],
  },
  { name: "no fingerprint declared", build: embedding({ fp: undefined }), status: "skip", says: [/embeddings_fingerprint is not declared/] },
  { name: "a null fingerprint (no embedding space)", build: embedding({ fp: null }), status: "skip" },
  // The fingerprint grammar is stated with no keyword: the check and the schema's pattern both warn.
  {
    name: "a fingerprint without dimensions",
    build: embedding({ fp: "bge-small-en-v1.5" }),
    // Outside §1's normative fingerprint grammar: a failure, one finding (the schema's pattern is the same cause).
    status: "fail",
    codes: ["E1.bad-fingerprint"],
    says: [/embeddings_fingerprint "bge-small-en-v1\.5" does not follow <model-id>\/<dimensions>\[\/<normalization>\]/],
  },
  {
    name: "a fingerprint declaring 0 dimensions",
    build: embedding({ fp: "bge/0/l2" }),
    // In the grammar, but no vector has zero dimensions: no keyword says so, so a warning.
    status: "warn",
    codes: ["E1.no-dimensions"],
    strict: "warn",
    says: [/"bge\/0\/l2" declares no dimensions/],
  },
  {
    name: "a fingerprint that is not a string",
    build: embedding({ fp: 384 }),
    status: "fail",
    codes: ["E1.bad-fingerprint"],
    says: [/\/capabilities\/embeddings_fingerprint must be string,null/],
  },
  {
    // No keyword binds a provider to serve a vector of its own dimension.
    name: "an embedding of the declared dimension refused",
    build: embedding({ ok: { type: "error", id: "embed-1", code: "bad_request", message: "no embeddings here" } }),
    status: "warn",
    codes: ["E1.refused"],
    strict: "warn",
    says: [/a query with an embedding of exactly the declared 384 dimensions was refused \| frames \| error "bad_request": "no embeddings here"/],
  },
  {
    // The error table's transient overload: a run cannot tell it from the truth, so it informs.
    name: "an embedding of the declared dimension answered unavailable",
    build: embedding({ ok: { type: "error", id: "embed-1", code: "unavailable", message: "index warming up" } }),
    status: "info",
    codes: ["E1.refused-unavailable"],
    strict: "info",
    says: [/answered error unavailable/],
  },
  {
    name: "the embedding of the declared dimension gets no answer",
    build: embedding({ ok: null }),
    status: "unobserved",
    codes: ["E1.no-answer"],
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
  {
    name: "the over-long vector answered with frames",
    build: embedding({ wrong: frames("embed-2", [frame()]) }),
    status: "warn",
    codes: ["E1.mismatch-accepted"],
    strict: "fail",
    says: [/an embedding of 387 dimensions against a 384-dimension space was not refused with bad_request \| error bad_request \| frames \(scored anyway\)/],
  },
  {
    name: "without correlation, the over-long vector answered with frames",
    build: embedding({ correlation: false, wrong: noId(frames("embed-2", [frame()])) }),
    status: "warn",
    strict: "fail",
    says: [/not refused with bad_request \| error bad_request \| frames \(scored anyway\)/],
  },
  {
    name: "the over-long vector refused with another code",
    build: embedding({ wrong: { type: "error", id: "embed-2", code: "internal", message: "index error" } }),
    status: "warn",
    codes: ["E1.mismatch-accepted"],
    strict: "fail",
    says: [/not refused with bad_request \| error bad_request \| error "internal"/],
  },
  {
    // "SHOULD reply bad_request": silence falls short of the SHOULD.
    name: "the over-long vector left unanswered",
    build: embedding({ wrong: null }),
    status: "warn",
    codes: ["E1.mismatch-unanswered"],
    strict: "fail",
    says: [/a query with an embedding of 387 dimensions \(line 8\) got no answer: no reply within 800 ms/],
  },
  {
    name: "the provider dies on the over-long vector: R1's crash, not observed here",
    build: embedding({ wrong: "exit" }),
    status: "unobserved",
    codes: ["E1.mismatch-lost"],
    untestable: true,
    says: [/got no answer: the provider exited \(code 1\)/],
  },
  {
    name: "refused, then the next query hangs",
    build: embedding({ sync: null }),
    status: "fail",
    codes: ["E1.wedged"],
    says: [
      /an embedding of 387 dimensions got error bad_request/,
      /after an embedding of 387 dimensions, the following valid query got no reply within 800 ms \(R1: a provider MUST NOT crash on a bad request, and one that stops answering has\) \| the provider stays alive/,
    ],
  },
  {
    name: "without correlation, a bad_request then frames",
    build: embedding({ correlation: false }),
    status: "pass",
    says: [/an embedding of 387 dimensions got error bad_request/],
  },
]);
