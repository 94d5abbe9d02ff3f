import C5 from "../../checks/C5.ts";
import E1 from "../../checks/E1.ts";
import H4 from "../../checks/H4.ts";
import Q1 from "../../checks/Q1.ts";
import { CORRELATION_IDS as IDS } from "../../src/protocol/probes.ts";
import { unitVector } from "../../src/probe/embedding.ts";
import { kindStep, KINDS_QUERY } from "../../src/protocol/probes.ts";
import { BASE_KINDS, fingerprintDims } from "../../src/protocol/caps.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

/** The ack with these capabilities (query.kinds [] unless given). */
const acking = (caps: Record<string, unknown>): object => ({ ...ACK, capabilities: { query: { kinds: [] }, ...caps } });
const timeout = (b: TranscriptBuilder): TranscriptBuilder => b.note("timeout", { waitedMs: 800, expecting: "a reply" });
const dies = (b: TranscriptBuilder): TranscriptBuilder => b.note("eof").note("exit", { exitCode: 1, signal: null });

// ---------------------------------------------------------------- H4

/**
 * Probe correlation, as a run records it (lines 2–3 the handshake):
 * id-first 4/5, id-second 6/7, id-refused 8/9, id-verify 10/11.
 * A reply given as null is never sent: the step times out and the probe stops.
 */
type CorrelationStep = "first" | "second" | "refused" | "verify";
function correlation(replies: Partial<Record<CorrelationStep, object | null>> = {}): () => TranscriptBuilder {
  const verifyReq = { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: "canned", frame_id: "cgp-conform:correlation" }] } };
  const steps: Array<[CorrelationStep, string, object, object]> = [
    ["first", "id-first", query(IDS.first), frames(IDS.first, [frame()])],
    ["second", "id-second", query(IDS.second), frames(IDS.second, [frame()])],
    ["refused", "id-refused", query(IDS.error, { representation_preferences: ["compact"] }), { type: "error", id: IDS.error, code: "unsupported_representation", message: "not offered: compact" }],
    ["verify", "id-verify", verifyReq, { type: "verified", id: IDS.verify, response: { verdicts: [{ frame: verifyReq.request.frames[0], status: "gone" }] } }],
  ];
  return () => {
    const b = tx().probe("correlation").handshake(acking({ correlation: true, verify: true }));
    for (const [key, step, request, honest] of steps) {
      b.send(step, request);
      const r = key in replies ? replies[key] : honest;
      if (r === null) return timeout(b);
      b.recv(r!);
    }
    return b;
  };
}

const unframed = { type: "frames", result: { frames: [], truncated: false } };

runCases(H4, [
  {
    name: "every reply echoes its id, byte for byte",
    build: correlation(),
    status: "pass",
    says: [/"frames" echoes id "Q-Äb\/c 1✓"/, /"frames" echoes id "q-äB\/c 1✓"/, /"error" echoes id "E-Ñ\/2 ✓"/, /"verified" echoes id "V-ß\/3 ✓"/],
  },
  {
    name: "correlation not declared: lock-step, no id to echo",
    build: () => tx().probe("correlation").handshake(acking({})),
    status: "skip",
    says: [/capabilities\.correlation is not declared/],
  },
  {
    name: "frames that drop the id",
    build: correlation({ first: unframed }),
    status: "fail",
    says: [/the "frames" answering request "Q-Äb\/c 1✓" carries no id \| "Q-Äb\/c 1✓" \| absent/],
  },
  {
    name: "an id echoed case-folded",
    build: correlation({ second: frames("q-äb/c 1✓", []) }),
    status: "fail",
    says: [/the "frames" answering request "q-äB\/c 1✓" carries id "q-äb\/c 1✓", not the same string/],
  },
  {
    name: "an id echoed Unicode-normalised (NFD)",
    build: correlation({ first: frames(IDS.first.normalize("NFD"), []) }),
    status: "fail",
    says: [/answering request "Q-Äb\/c 1✓" carries id .*, not the same string/],
  },
  {
    name: "an error that drops the id",
    build: correlation({ refused: { type: "error", code: "unsupported_representation", message: "not offered" } }),
    status: "fail",
    says: [/the "error" answering request "E-Ñ\/2 ✓" carries no id/],
  },
  {
    name: "a verified carrying another request's id",
    build: correlation({ verify: { type: "verified", id: IDS.first, response: { verdicts: [] } } }),
    status: "fail",
    says: [/the "verified" answering request "V-ß\/3 ✓" carries id "Q-Äb\/c 1✓", not the same string/],
  },
  {
    name: "a request left unanswered",
    build: correlation({ second: null }),
    status: "fail",
    untestable: true,
    says: [/request "q-äB\/c 1✓" \(line 6\) got no reply to check: no reply within 800 ms/],
  },
  {
    name: "the provider dies on a request",
    build: () => dies(tx().probe("correlation").handshake(acking({ correlation: true })).send("id-first", query(IDS.first))),
    status: "fail",
    untestable: true,
    says: [/request "Q-Äb\/c 1✓" \(line 4\) got no reply to check: the provider exited \(code 1, signal null\)/],
  },
]);

// ---------------------------------------------------------------- C5

const flow = (dataFlow: Record<string, unknown>) => () =>
  tx().probe("handshake").handshake({ ...ACK, provider: { ...ACK.provider, data_flow: { reads: true, writes: false, ...dataFlow } } });

runCases(C5, [
  { name: "no egress_scopes", build: flow({ egress: false }), status: "skip", says: [/declares no egress_scopes/] },
  { name: "an empty egress_scopes", build: flow({ egress: false, egress_scopes: [] }), status: "skip" },
  { name: "egress false, local-only", build: flow({ egress: false, egress_scopes: ["local-only"] }), status: "pass", says: [/egress false with egress_scopes \["local-only"\] is consistent/] },
  { name: "egress true, off-machine scopes", build: flow({ egress: true, egress_scopes: ["org-tenant", "acme:vault"] }), status: "pass", says: [/egress true with egress_scopes \["org-tenant","acme:vault"\]/] },
  {
    name: "egress false beside a base off-machine scope",
    build: flow({ egress: false, egress_scopes: ["org-tenant"] }),
    status: "fail",
    says: [/data_flow declares egress: false beside off-machine scope "org-tenant" \| egress: true, or only local-only scopes \| egress: false, egress_scopes \["org-tenant"\]/],
  },
  {
    name: "egress false beside an unrecognised custom scope (treated as off-machine)",
    build: flow({ egress: false, egress_scopes: ["local-only", "acme:vault"] }),
    status: "fail",
    says: [/beside off-machine scope "acme:vault" \|/],
  },
  {
    name: "egress false beside several off-machine scopes",
    build: flow({ egress: false, egress_scopes: ["third-party-index", "local-only", "third-party-model"] }),
    status: "fail",
    says: [/beside off-machine scopes "third-party-index", "third-party-model"/],
  },
]);

// ---------------------------------------------------------------- Q1

/**
 * Probe kinds-query in the shared session (its handshake borrowed from probe
 * handshake, lines 2–3): one query per declared kind, then one for the first
 * base kind not declared. Declared ["doc", "snippet"]: kind-doc 4/5,
 * kind-snippet 6/7, unserved "symbol" 8/9. Null: no answer, the probe stops.
 */
function kinds(declared: string[], replies: Record<string, object | null> = {}): () => TranscriptBuilder {
  return () => {
    const b = tx().probe("handshake", "shared").handshake(acking({ query: { kinds: declared }, correlation: true })).probe("kinds-query", "shared");
    const unserved = BASE_KINDS.find((k) => !declared.includes(k));
    const asks: Array<[string, string, string]> = [
      ...declared.map((k, i): [string, string, string] => [kindStep(k), `kind-${i + 1}`, k]),
      ...(unserved ? [[KINDS_QUERY.steps.unserved, "kind-unserved", unserved] as [string, string, string]] : []),
    ];
    for (const [step, id, kind] of asks) {
      b.send(step, query(id, { kinds: [kind] }));
      const r = kind in replies ? replies[kind] : frames(id, kind === unserved ? [] : [frame({ id: `frm_${kind}`, kind })]);
      if (r === null) return timeout(b);
      b.recv(r!);
    }
    return b;
  };
}

runCases(Q1, [
  {
    name: "each narrowed query returns only its kind; the unserved kind returns nothing",
    build: kinds(["doc", "snippet"]),
    status: "pass",
    says: [/kinds \["doc"\]: 1 frames, all of kind "doc"/, /kinds \["snippet"\]: 1 frames, all of kind "snippet"/, /kinds \["symbol"\]: 0 frames/],
  },
  {
    name: "the unserved kind answered unsupported_kind",
    build: kinds(["doc"], { snippet: { type: "error", id: "kind-unserved", code: "unsupported_kind", message: "doc only" } }),
    status: "pass",
    says: [/kinds \["snippet"\] answered with unsupported_kind/],
  },
  {
    name: "no kinds declared: only the unserved-kind query",
    build: kinds([]),
    status: "pass",
    says: [/kinds \["snippet"\]: 0 frames/],
  },
  {
    name: "a declared kind's query lets another kind through",
    build: kinds(["doc", "snippet"], { doc: frames("kind-1", [frame({ id: "frm_doc", kind: "doc" }), frame({ id: "frm_2", kind: "snippet" })]) }),
    status: "fail",
    says: [/kinds \["doc"\] returned 1 frame of another kind: "frm_2" \("snippet"\) \| only frames of kind "doc" \| kinds \["doc","snippet"\]/],
  },
  {
    name: "the filter ignored for the unserved kind",
    build: kinds(["doc", "snippet"], { symbol: frames("kind-unserved", [frame({ id: "frm_a", kind: "doc" }), frame({ id: "frm_b", kind: "snippet" })]) }),
    status: "fail",
    says: [/kinds \["symbol"\] returned 2 frames of another kind: "frm_a" \("doc"\), "frm_b" \("snippet"\)/],
  },
  {
    name: "a narrowed query refused with another error code",
    build: kinds(["doc", "snippet"], { snippet: { type: "error", id: "kind-2", code: "bad_request", message: "kinds?" } }),
    status: "fail",
    says: [/kinds \["snippet"\] answered with error "bad_request" \| frames of kind "snippet", or error unsupported_kind \| error "bad_request"/],
  },
  {
    name: "a narrowed query left unanswered",
    build: kinds(["doc", "snippet"], { doc: null }),
    status: "fail",
    untestable: true,
    says: [/query for kinds \["doc"\] \(line 4\) got no answer: no reply within 800 ms/],
  },
  {
    // Unreachable from a live run: the probe always sends the unserved-kind query.
    name: "a transcript with no narrowed query in it",
    build: () => tx().probe("handshake", "shared").handshake().probe("kinds-query", "shared"),
    status: "skip",
    says: [/declares no kinds in capabilities\.query\.kinds/],
  },
]);

// ---------------------------------------------------------------- E1

const FP = "bge-small-en-v1.5/384/l2";
const badRequest = (id?: string): object => ({ type: "error", ...(id ? { id } : {}), code: "bad_request", message: "query.embedding has 387 dimensions; 384 declared" });
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
    const b = tx().probe("handshake", "shared").handshake(ack).probe("embedding", "shared");
    if (dims !== undefined) {
      b.send("embedding-ok", q("embed-1", { embedding: unitVector(dims) }));
      if (o.ok === null) timeout(b);
      else b.recv(o.ok ?? answer("embed-1"));
    }
    b.probe("embedding-mismatch").handshake(ack);
    if (dims === undefined) return b;
    b.send("embedding-wrong", q("embed-2", { embedding: unitVector(dims + 3) }));
    if (o.wrong === null) return timeout(b);
    if (o.wrong === "exit") return dies(b);
    b.recv(o.wrong ?? (corr ? badRequest("embed-2") : badRequest()));
    b.send("after-embedding-wrong", q("embed-sync"));
    if (o.sync === null) return timeout(b);
    return b.recv(o.sync ?? answer("embed-sync"));
  };
}

runCases(E1, [
  {
    name: "a declared fingerprint, honoured both ways",
    build: embedding(),
    status: "pass",
    says: [/embeddings_fingerprint "bge-small-en-v1\.5\/384\/l2" declares 384 dimensions/, /a 384-dimension embedding was answered with frames/, /an embedding of 387 dimensions got error bad_request/],
  },
  { name: "no fingerprint declared", build: embedding({ fp: undefined }), status: "skip", says: [/embeddings_fingerprint is not declared/] },
  { name: "a null fingerprint (no embedding space)", build: embedding({ fp: null }), status: "skip" },
  {
    name: "a fingerprint without dimensions",
    build: embedding({ fp: "bge-small-en-v1.5" }),
    status: "fail",
    says: [/embeddings_fingerprint "bge-small-en-v1\.5" does not follow <model-id>\/<dimensions>\[\/<normalization>\]/],
  },
  { name: "a fingerprint declaring 0 dimensions", build: embedding({ fp: "bge/0/l2" }), status: "fail", says: [/"bge\/0\/l2" does not follow/] },
  {
    name: "an embedding of the declared dimension refused",
    build: embedding({ ok: { type: "error", id: "embed-1", code: "bad_request", message: "no embeddings here" } }),
    status: "fail",
    says: [/a query with an embedding of exactly the declared 384 dimensions was refused \| frames \| error "bad_request": "no embeddings here"/],
  },
  {
    name: "the embedding of the declared dimension gets no answer",
    build: embedding({ ok: null }),
    status: "fail",
    untestable: true,
    says: [/\(line 4\).*no reply within 800 ms/],
  },
  {
    name: "the over-long vector answered with frames",
    build: embedding({ wrong: frames("embed-2", [frame()]) }),
    status: "warn",
    says: [/an embedding of 387 dimensions against a 384-dimension space was not refused with bad_request \| error bad_request \| frames \(scored anyway\)/],
  },
  {
    name: "without correlation, the over-long vector answered with frames",
    build: embedding({ correlation: false, wrong: noId(frames("embed-2", [frame()])) }),
    status: "warn",
    says: [/not refused with bad_request \| error bad_request \| frames \(scored anyway\)/],
  },
  {
    name: "the over-long vector refused with another code",
    build: embedding({ wrong: { type: "error", id: "embed-2", code: "internal", message: "index error" } }),
    status: "warn",
    says: [/not refused with bad_request \| error bad_request \| error "internal"/],
  },
  {
    name: "the over-long vector left unanswered",
    build: embedding({ wrong: null }),
    status: "fail",
    says: [/a query with an embedding of 387 dimensions \(line 8\) got no answer: no reply within 800 ms/],
  },
  {
    name: "the provider dies on the over-long vector",
    build: embedding({ wrong: "exit" }),
    status: "fail",
    says: [/got no answer: the provider exited \(code 1, signal null\)/],
  },
  {
    name: "refused, then the next query hangs",
    build: embedding({ sync: null }),
    status: "fail",
    says: [/an embedding of 387 dimensions got error bad_request/, /after an embedding of 387 dimensions, the following valid query got no reply within 800 ms \| the provider stays alive/],
  },
  {
    name: "without correlation, a bad_request then frames",
    build: embedding({ correlation: false }),
    status: "pass",
    says: [/an embedding of 387 dimensions got error bad_request/],
  },
]);
