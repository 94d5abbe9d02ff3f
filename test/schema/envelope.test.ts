import t from "tap";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { envelopeSchemas, validateEnvelope, type EnvelopeMode } from "../../src/schema/index.ts";
import { ownerOf } from "../../src/schema/owners.ts";

const MODES: EnvelopeMode[] = ["interop", "lint"];

function owners(env: unknown, mode: EnvelopeMode): string[] {
  const type = (env as { type?: unknown }).type;
  const errors = validateEnvelope(env, mode);
  return [...new Set(errors.map((e) => ownerOf(typeof type === "string" ? type : "", e)))].sort();
}

/** The published root (oneOf over every envelope), compiled apart, must agree with the per-type dispatch. */
const root = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const ROOT = { lint: root.compile(envelopeSchemas.lint), interop: root.compile(envelopeSchemas.interop) };

function rootAgrees(env: unknown, mode: EnvelopeMode): boolean {
  return ROOT[mode](env) === (validateEnvelope(env, mode).length === 0);
}

// ---------------------------------------------------------------- (a) the protocol's own examples

function reference(name: string): unknown[] {
  const text = readFileSync(new URL(`../published/${name}`, import.meta.url), "utf8");
  if (name.endsWith(".json")) return JSON.parse(text) as unknown[];
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

/**
 * Examples the spec makes invalid, by file and index, with the owners of their
 * errors per mode. Every other example must validate in both modes.
 */
const INVALID: Record<string, Record<number, { why: string } & Record<EnvelopeMode, string[]>>> = {
  "full-stdio-session.ndjson": {
    1: {
      why: "capabilities.upsert, capabilities.subscribe and capabilities.query.filters are not contextgraph/1 members (upsert/subscribe were purged, §5); U1 makes interop ignore them, the authoring-strict lint rejects them",
      interop: [],
      lint: ["S2-envelope"],
    },
    3: {
      why: 'D1: content_digest "sha256:9f2c3e7a1b" is not sha256:<64 lowercase hex>; F5: file provenance digest "sha256:9f2c3e7a" likewise',
      interop: ["D1", "F5"],
      lint: ["D1", "F5"],
    },
    4: {
      why: "D1: the FrameId content_digests are the same 10-hex placeholders",
      interop: ["D1"],
      lint: ["D1"],
    },
    5: {
      why: 'D1: placeholder FrameId content_digests; V4: replacement_digest "sha256:7d8e9f0a1b" is not a sha256 digest',
      interop: ["D1", "V4"],
      lint: ["D1", "V4"],
    },
  },
};

for (const file of ["reference-messages.json", "full-stdio-session.ndjson", "reference-vectors.ndjson"]) {
  t.test(file, async (t) => {
    const examples = reference(file);
    t.ok(examples.length > 0, `${examples.length} examples`);
    examples.forEach((env, i) => {
      const invalid = INVALID[file]?.[i];
      for (const mode of MODES) {
        const why = invalid && invalid[mode].length > 0 ? ` (${invalid.why})` : "";
        t.same(owners(env, mode), invalid?.[mode] ?? [], `#${i} ${(env as { type: string }).type} in ${mode}${why}`, {
          errors: validateEnvelope(env, mode),
        });
        t.ok(rootAgrees(env, mode), `#${i}: root oneOf agrees (${mode})`);
      }
    });
  });
}

// ---------------------------------------------------------------- (b) one negative case per rule

const D = (c: string) => `sha256:${c.repeat(64)}`;
const TS = "2026-07-21T12:34:56Z";

const FULL = {
  id: "frame:full",
  kind: "doc",
  title: "Retry policy",
  content: "Retry with backoff.",
  content_digest: D("a"),
  uri: "file:///repo/docs/retry.md",
  score: 0.5,
  token_cost: 5,
  valid_from: TS,
  valid_to: TS,
  recorded_at: TS,
  provenance: [
    { type: "file", uri: "file:///repo/docs/retry.md", range: "L1-2", digest: D("b"), method: "file-read", by: "idx" },
    { type: "derivation", uri: "contextgraph://idx/retry", method: "summary", by: "idx" },
  ],
  citation_label: "retry.md L1-2",
  relations: [{ rel: "doc.documents", target_uri: "symbol:///repo/retry.rs#Retry", display_name: "Retry" }],
  embedding: { fingerprint: "bge-small-en-v1.5/384/l2", vector: [0.5] },
};
const CONTENT_REF = { provider_id: "idx", uri: "contextgraph-ref://idx/retry", expires_at: TS };
const COMPACT = {
  id: "frame:compact",
  kind: "doc",
  title: "Retry (distilled)",
  content: "Retry: backoff.",
  content_digest: D("c"),
  representation: "compact",
  canonical_content_hash: D("a"),
  content_ref: CONTENT_REF,
  transform: { method: "extractive-summary", implementation: "idx/distill", version: "1.0.0" },
  score: 0.4,
  token_cost: 4,
  canonical_token_cost: 5,
  citation_label: "retry.md (distilled)",
};
const REFERENCE = {
  id: "frame:ref",
  kind: "doc",
  title: "Retry (reference)",
  representation: "reference",
  canonical_content_hash: D("a"),
  content_ref: CONTENT_REF,
  score: 0.3,
  token_cost: 0,
  citation_label: "retry.md (reference)",
};
const ATTESTATION = {
  signed_commitment: D("d"),
  key_id: "idx-ed25519-1",
  algorithm: "ed25519",
  attester_id: "idx",
  signature: "ab".repeat(64),
  issued_at: TS,
};

// Loose on purpose: the cases below edit deep members of literal envelopes.
type Json = Record<string, any>;

const frames = (...fs: Json[]): Json => ({
  type: "frames",
  id: "q1",
  result: {
    frames: fs,
    truncated: false,
    frame_attestations: [
      {
        frame: { provider_id: "idx", frame_id: "frame:full", content_digest: D("a") },
        attestation: ATTESTATION,
        inclusion_proof: { leaf_index: 0, leaf_count: 2, path: [{ sibling: D("e"), sibling_is_left: false }] },
      },
    ],
    result_attestation: ATTESTATION,
  },
});
const ACK: Json = {
  type: "handshake_ack",
  protocol_version: "contextgraph/1.0",
  provider: { name: "idx", version: "1.0.0", data_flow: { reads: true, writes: false, egress: true, egress_scopes: ["org-tenant", "acme:store"] } },
  capabilities: {
    query: { kinds: ["doc"] },
    correlation: true,
    graph: true,
    embeddings_fingerprint: "bge-small-en-v1.5/384/l2",
    verify: true,
    representations: ["full", "compact"],
    resolve: true,
  },
  attester_keys: [{ key_id: "idx-ed25519-1", algorithm: "ed25519", public_key: "d7".repeat(32) }],
};
const QUERY: Json = {
  type: "query",
  id: "q1",
  query: {
    goal: "explain retries",
    query_text: "retry",
    embedding: [0.1],
    kinds: ["doc"],
    anchors: ["file:///repo/src/retry.rs"],
    max_frames: 8,
    max_tokens: 4096,
    as_of: TS,
    representation_preferences: ["compact"],
  },
};
const VERIFY: Json = { type: "verify", id: "v1", request: { frames: [{ provider_id: "idx", frame_id: "frame:full", content_digest: D("a") }] } };
const VERIFIED: Json = {
  type: "verified",
  id: "v1",
  response: {
    verdicts: [
      { frame: { provider_id: "idx", frame_id: "frame:full", content_digest: D("a") }, status: "stale", replacement_digest: D("f") },
      { frame: { provider_id: "idx", frame_id: "frame:gone" }, status: "gone" },
    ],
  },
};
const ERROR: Json = { type: "error", id: "q1", code: "acme:quota", message: "quota exhausted" };
const FRAMES = frames(FULL, COMPACT, REFERENCE);

/** A deep copy of `base` changed by `edit` (through JSON, so shared members are not aliased). */
function mutate(base: Json, edit: (e: Json) => void): Json {
  const copy = JSON.parse(JSON.stringify(base)) as Json;
  edit(copy);
  return copy;
}
const frame0 = (edit: (f: Json) => void) => mutate(FRAMES, (e) => edit(e.result.frames[0]));
const frame1 = (edit: (f: Json) => void) => mutate(FRAMES, (e) => edit(e.result.frames[1]));
const frame2 = (edit: (f: Json) => void) => mutate(FRAMES, (e) => edit(e.result.frames[2]));

t.test("the bases of the negative cases are valid in both modes", async (t) => {
  for (const env of [FRAMES, ACK, QUERY, VERIFY, VERIFIED, ERROR, { type: "handshake", protocol_version: "contextgraph/1.0-draft" }, { type: "shutdown" }]) {
    for (const mode of MODES) t.same(validateEnvelope(env, mode), [], `${env.type} (${mode})`);
  }
});

const NEGATIVE: Array<[string, string, unknown]> = [
  ["H1", "ack protocol_version outside the grammar", mutate(ACK, (e) => (e.protocol_version = "contextgraph/1"))],
  ["H1", "ack without protocol_version", mutate(ACK, (e) => delete e.protocol_version)],
  ["H2", "empty provider.name", mutate(ACK, (e) => (e.provider.name = ""))],
  ["H2", "empty provider.version", mutate(ACK, (e) => (e.provider.version = ""))],
  [
    "C5",
    "off-machine scope alongside egress: false",
    mutate(ACK, (e) => (e.provider.data_flow = { reads: true, writes: false, egress: false, egress_scopes: ["local-only", "third-party-model"] })),
  ],
  ["U3", "custom scope with an empty side", mutate(ACK, (e) => (e.provider.data_flow.egress_scopes = ["acme:"]))],
  ["U3", "unnamespaced unknown scope", mutate(ACK, (e) => (e.provider.data_flow.egress_scopes = ["cloud"]))],
  // data_flow's required members are the wire shape's; C5's MUST is only the egress contradiction (docs/readings.md).
  ["S2-envelope", "data_flow without egress", mutate(ACK, (e) => delete e.provider.data_flow.egress)],
  ["S2-envelope", "data_flow without writes", mutate(ACK, (e) => delete e.provider.data_flow.writes)],
  ["E1", "fingerprint without dimensions", mutate(ACK, (e) => (e.capabilities.embeddings_fingerprint = "bge-small-en-v1.5"))],
  ["E1", "query embedding that is not numbers", mutate(QUERY, (e) => (e.query.embedding = ["0.1"]))],
  ["E1", "frame embedding without fingerprint", frame0((f) => (f.embedding = { vector: [1] }))],
  ["F1", "score above 1", frame0((f) => (f.score = 1.5))],
  ["F1", "negative score", frame0((f) => (f.score = -0.01))],
  ["F2", "empty title", frame0((f) => (f.title = ""))],
  ["F2", "no title", frame1((f) => delete f.title)],
  ["F3", "empty citation_label", frame0((f) => (f.citation_label = ""))],
  ["F3", "no citation_label", frame2((f) => delete f.citation_label)],
  ["F4", "valid_from with a numeric offset", frame0((f) => (f.valid_from = "2026-01-01T00:00:00+00:00"))],
  ["F4", "valid_to with a lowercase t", frame0((f) => (f.valid_to = "2026-01-01t00:00:00Z"))],
  ["F4", "recorded_at with a space separator", frame0((f) => (f.recorded_at = "2026-01-01 00:00:00Z"))],
  ["F4", "query as_of without Z", mutate(QUERY, (e) => (e.query.as_of = "2026-01-01T00:00:00"))],
  ["F4", "content_ref expires_at as a date", frame1((f) => (f.content_ref.expires_at = "2026-12-31"))],
  ["F4", "attestation issued_at with an offset", mutate(FRAMES, (e) => (e.result.result_attestation.issued_at = "2026-08-29T12:00:00+02:00"))],
  ["F5", "file provenance without digest", frame0((f) => delete f.provenance[0].digest)],
  ["F5", "file provenance with a null digest", frame0((f) => (f.provenance[0].digest = null))],
  ["F5", "file provenance digest in uppercase hex", frame0((f) => (f.provenance[0].digest = `sha256:${"A".repeat(64)}`))],
  ["F5", "provenance link without type", frame0((f) => delete f.provenance[1].type)],
  ["D1", "frame content_digest too short", frame0((f) => (f.content_digest = "sha256:9f2c3e7a1b"))],
  ["D1", "verify identity with a bad digest", mutate(VERIFY, (e) => (e.request.frames[0].content_digest = "md5:abc"))],
  ["D1", "verdict identity with a bad digest", mutate(VERIFIED, (e) => (e.response.verdicts[0].frame.content_digest = D("g")))],
  ["D1", "attested identity with a bad digest", mutate(FRAMES, (e) => (e.result.frame_attestations[0].frame.content_digest = "sha256:"))],
  ["G1", "empty display_name", frame0((f) => (f.relations[0].display_name = ""))],
  ["G1", "no display_name", frame0((f) => delete f.relations[0].display_name)],
  ["G2", "empty target_uri", frame0((f) => (f.relations[0].target_uri = ""))],
  ["U3", "empty rel", frame0((f) => (f.relations[0].rel = ""))],
  ["U3", "rel with an empty namespace side", frame0((f) => (f.relations[0].rel = "acme:"))],
  ["P1", "full frame carrying content_ref", frame0((f) => (f.content_ref = CONTENT_REF))],
  ["P1", "full frame carrying canonical_content_hash", frame0((f) => (f.canonical_content_hash = D("a")))],
  ["P1", "explicit full frame carrying transform", frame0((f) => Object.assign(f, { representation: "full", transform: { method: "x" } }))],
  ["P1", "full frame without content", frame0((f) => delete f.content)],
  ["P2", "compact frame without transform", frame1((f) => delete f.transform)],
  ["P2", "compact frame without content_digest", frame1((f) => delete f.content_digest)],
  ["P2", "compact frame without content_ref", frame1((f) => delete f.content_ref)],
  ["P2", "compact frame with a malformed canonical_content_hash", frame1((f) => (f.canonical_content_hash = "e3b0c442"))],
  ["P3", "reference frame with empty content", frame2((f) => (f.content = ""))],
  ["P3", "reference frame with content_digest", frame2((f) => (f.content_digest = D("a")))],
  ["P3", "reference frame without canonical_content_hash", frame2((f) => delete f.canonical_content_hash)],
  ["P4", "reference frame declaring the full-source cost", frame2((f) => (f.token_cost = 5))],
  ["P4", "compact frame with a negative token_cost", frame1((f) => (f.token_cost = -1))],
  ["P4", "negative canonical_token_cost", frame1((f) => (f.canonical_token_cost = -1))],
  ["B3", "full frame with a fractional token_cost", frame0((f) => (f.token_cost = 1.5))],
  ["B3", "full frame without token_cost", frame0((f) => delete f.token_cost)],
  ["V2", "verified without response", mutate(VERIFIED, (e) => delete e.response)],
  ["V2", "verdict without the identity it answers", mutate(VERIFIED, (e) => delete e.response.verdicts[1].frame)],
  ["V3", "status outside the four verdicts", mutate(VERIFIED, (e) => (e.response.verdicts[1].status = "fresh"))],
  ["V3", "verdict without status", mutate(VERIFIED, (e) => delete e.response.verdicts[1].status)],
  ["V4", "replacement_digest that is not a digest", mutate(VERIFIED, (e) => (e.response.verdicts[0].replacement_digest = "sha256:7d8e9f0a1b"))],
  ["F11", "attestation without signature", mutate(FRAMES, (e) => delete e.result.frame_attestations[0].attestation.signature)],
  ["F11", "result_attestation commitment outside the grammar", mutate(FRAMES, (e) => (e.result.result_attestation.signed_commitment = "deadbeef"))],
  ["F11", "inclusion proof over zero leaves", mutate(FRAMES, (e) => (e.result.frame_attestations[0].inclusion_proof.leaf_count = 0))],
  ["F11", "attestation entry naming no frame", mutate(FRAMES, (e) => delete e.result.frame_attestations[0].frame)],
  ["S6-signatures", "attester key without public_key", mutate(ACK, (e) => delete e.attester_keys[0].public_key)],
  ["S2-envelope", "error without message", mutate(ERROR, (e) => delete e.message)],
  ["U3", "error with a numeric code", mutate(ERROR, (e) => (e.code = 400))],
  ["U3", "code with an empty vendor", mutate(ERROR, (e) => (e.code = ":quota"))],
  ["S2-envelope", "no type", { query: QUERY.query }],
  ["S2-envelope", "unknown type", { type: "subscribe", id: "s1" }],
  ["S2-envelope", "type that is not a string", { type: 7 }],
  ["S2-envelope", "an array, not an object", [QUERY]],
  ["S2-envelope", "frames without truncated", mutate(FRAMES, (e) => delete e.result.truncated)],
  ["S2-envelope", "query without max_tokens", mutate(QUERY, (e) => delete e.query.max_tokens)],
  ["S2-envelope", "max_tokens beyond u32", mutate(QUERY, (e) => (e.query.max_tokens = 2 ** 32))],
  ["S2-envelope", "ack without capabilities", mutate(ACK, (e) => delete e.capabilities)],
  ["P5", "compact advertised without resolve", mutate(ACK, (e) => (e.capabilities.resolve = false))],
  ["S2-envelope", "empty correlation id", mutate(QUERY, (e) => (e.id = ""))],
];

t.test("each rule fails in both modes, owned by its anchor", async (t) => {
  for (const [anchor, name, env] of NEGATIVE) {
    for (const mode of MODES) {
      t.same(owners(env, mode), [anchor], `${anchor}: ${name} (${mode})`, { errors: validateEnvelope(env, mode) });
      t.ok(rootAgrees(env, mode), `${name}: root oneOf agrees (${mode})`);
    }
  }
});

t.test("an unknown type is one error at /type", async (t) => {
  const errors = validateEnvelope({ type: "subscribe" }, "interop");
  t.equal(errors.length, 1);
  t.equal(errors[0]?.instancePath, "/type");
  t.match(errors[0]?.message, /unknown envelope type "subscribe"/);
});

t.test("errors name the offending member and a pointer into the schema", async (t) => {
  const [missing] = validateEnvelope(
    frame0((f) => delete f.citation_label),
    "lint",
  );
  t.same(missing, {
    instancePath: "/result/frames/0/citation_label",
    keyword: "required",
    message: 'required member "citation_label" is missing',
    schemaPath: "#/$defs/ContextFrame/required",
  });
  const [forbidden] = validateEnvelope(
    frame2((f) => (f.content = "")),
    "interop",
  );
  t.same(forbidden, {
    instancePath: "/result/frames/2/content",
    keyword: "not",
    message: "must not be present",
    schemaPath: "#/$defs/RepresentationReference/properties/content/not",
  });
});

// ---------------------------------------------------------------- U1: unknown members

const UNKNOWN: Array<[string, string, unknown, string]> = [
  ["envelope", "S2-envelope", mutate(FRAMES, (e) => (e.trace = "t-1")), "/trace"],
  ["query", "S2-envelope", mutate(QUERY, (e) => (e.query.rerank = true)), "/query/rerank"],
  ["capabilities", "S2-envelope", mutate(ACK, (e) => (e.capabilities.subscribe = false)), "/capabilities/subscribe"],
  ["data_flow", "S2-envelope", mutate(ACK, (e) => (e.provider.data_flow.retention_days = 30)), "/provider/data_flow/retention_days"],
  ["frame", "S2-envelope", frame0((f) => (f.language = "en")), "/result/frames/0/language"],
  ["attestation inside a frame", "F6", frame0((f) => (f.attestation = ATTESTATION)), "/result/frames/0/attestation"],
  ["provenance link", "F5", frame0((f) => (f.provenance[0].commit = "abc123")), "/result/frames/0/provenance/0/commit"],
  ["relation", "G2", frame0((f) => (f.relations[0].weight = 0.5)), "/result/frames/0/relations/0/weight"],
  ["content_ref", "P2", frame1((f) => (f.content_ref.etag = "x")), "/result/frames/1/content_ref/etag"],
  ["attestation", "F11", mutate(FRAMES, (e) => (e.result.result_attestation.nonce = "n")), "/result/result_attestation/nonce"],
  ["verdict", "V2", mutate(VERIFIED, (e) => (e.response.verdicts[1].checked_at = TS)), "/response/verdicts/1/checked_at"],
  [
    "replacement_digest on a non-stale verdict",
    "V4",
    mutate(VERIFIED, (e) => (e.response.verdicts[1].replacement_digest = D("f"))),
    "/response/verdicts/1/replacement_digest",
  ],
];

t.test("U1: unknown members pass interop and fail lint", async (t) => {
  for (const [where, anchor, env, path] of UNKNOWN) {
    t.same(validateEnvelope(env, "interop"), [], `${where}: interop ignores it`);
    const errors = validateEnvelope(env, "lint");
    t.same(
      errors.map((e) => e.instancePath),
      [path],
      `${where}: lint rejects it once, at the member`,
    );
    t.same(owners(env, "lint"), [anchor], `${where}: owned by ${anchor}`);
    t.ok(rootAgrees(env, "interop") && rootAgrees(env, "lint"), `${where}: root oneOf agrees`);
  }
});

t.test("U2/X1: open vocabularies validate in both modes", async (t) => {
  const open = [
    frame0((f) => (f.kind = "diagram")),
    frame0((f) => (f.relations[0].rel = "myindex.owns")),
    frame0((f) => (f.relations[0].rel = "acme:owns")),
    // U3's vendor:name is "a : with non-empty sides": a name may hold more colons.
    frame0((f) => (f.relations[0].rel = "acme:code:calls-into")),
    mutate(ERROR, (e) => (e.code = "acme:quota:daily")),
    mutate(ACK, (e) => (e.provider.data_flow = { reads: true, writes: false, egress: true, egress_scopes: ["acme:eu:west"] })),
    mutate(ERROR, (e) => (e.code = "quota_exhausted")),
    mutate(ERROR, (e) => delete e.code),
  ];
  for (const env of open) for (const mode of MODES) t.same(validateEnvelope(env, mode), [], mode);
});

// ---------------------------------------------------------------- the two profiles

type Node = Record<string, unknown>;
function* subschemas(node: unknown, at: string): Generator<[string, Node]> {
  if (typeof node !== "object" || node === null) return;
  if (!Array.isArray(node)) yield [at, node as Node];
  for (const [k, v] of Object.entries(node)) yield* subschemas(v, `${at}/${k}`);
}

const closed = (s: Node) => s.additionalProperties === false || s.unevaluatedProperties === false;

t.test("lint closes every object; interop closes none", async (t) => {
  // Conditions and the Representation* branches apply to an object that is closed where it is defined.
  const applied = (at: string) => /\/(if|then)(\/|$)/.test(at) || at.startsWith("#/$defs/Representation");
  const objects = [...subschemas(envelopeSchemas.lint, "#")].filter(([at, s]) => "properties" in s && !applied(at));
  t.ok(objects.length > 20, `${objects.length} object schemas`);
  t.same(
    objects.filter(([, s]) => !closed(s)).map(([at]) => at),
    [],
    "lint: every object schema is closed",
  );
  t.same(
    [...subschemas(envelopeSchemas.interop, "#")].filter(([, s]) => closed(s)).map(([at]) => at),
    [],
    "interop: none is",
  );
  t.equal(envelopeSchemas.lint.$id, "https://contextgraphprotocol.org/schema/v1/contextgraph-envelope.schema.json");
  t.not(envelopeSchemas.interop.$id, envelopeSchemas.lint.$id, "the interop schema has its own $id");
});
