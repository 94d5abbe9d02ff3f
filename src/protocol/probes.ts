/**
 * Every probe's name, session and step names, declared once. Probes send
 * under these steps, checks read them back by the same constants, and a
 * probe view asked for a step its probe does not declare throws: a typo can
 * never make a check see nothing and skip in silence.
 */
import { FOREIGN_VERSION } from "../math/version.ts";

export interface ProbeSpec<S extends Readonly<Record<string, string>> = Readonly<Record<string, string>>> {
  name: string;
  summary: string;
  /** The session opens with the standard handshake first (false: the probe sends its own). */
  handshake: boolean;
  /**
   * The provider process the probe runs in: "shared", with every probe whose
   * requests need no fresh state (a stimulus that kills or wedges the provider
   * there is passed over, and what the session had not sent yet is sent in a
   * fresh one); "malformed", with the other probe of malformed input; "own",
   * a process of its own, for a probe that opens with a handshake of its own or
   * breaks a host rule on purpose.
   */
  session: "shared" | "malformed" | "own";
  /**
   * Its stimuli form one exchange: after one of them kills or wedges the
   * provider there is nothing of the probe left to send in a fresh session.
   */
  atomic?: boolean;
  /**
   * The check that judges what becomes of the provider after this probe's
   * stimuli itself (a hang on a foreign version is H3's, an exit after
   * shutdown R2's): R1 holds every other crash.
   */
  survivalJudgedBy?: string;
  /** The envelope types whose survival that check judges; absent, every stimulus of the probe. */
  survivalOf?: readonly string[];
  /** Fixed step names. */
  steps: S;
  /** Prefixes of parametric step names (`kind-` + a kind). */
  families: readonly string[];
}

/**
 * How far derived stimuli explore: quick sends the few cases every rule needs,
 * standard (the default) the boundary cases of each rule drawn from the
 * provider's own corpus, bounded per rule; exhaustive every case the corpus
 * yields. The number of exchanges a run made is in its report.
 */
export const DEPTHS = ["quick", "standard", "exhaustive"] as const;
export type Depth = (typeof DEPTHS)[number];
export const DEFAULT_DEPTH: Depth = "standard";

/**
 * Exhaustive depth takes every case a corpus yields, up to this many of each
 * kind: past it, a corpus of a hundred thousand frames would cost a hundred
 * thousand queries.
 */
export const EXHAUSTIVE_CAP = 64;

/** The first `n` of `items` at this depth: `n.quick` / `n.standard`, or all of them (up to EXHAUSTIVE_CAP) when exhaustive. */
export function atDepth<T>(depth: Depth, items: readonly T[], n: { quick: number; standard: number }): T[] {
  return items.slice(0, depth === "exhaustive" ? Math.max(EXHAUSTIVE_CAP, n.standard) : n[depth]);
}

/** Why a stimulus was sent: the rules it aims at, and how it was chosen from what the provider declared and served. */
export interface Aim {
  rules: string[];
  why: string;
}

/** A generous budget: more than any honest fixture needs, small enough to be a sane u32. */
export const GENEROUS = { max_frames: 64, max_tokens: 1_000_000 } as const;

/** How every step begins that chases a stimulus with a valid query, to learn whether the provider survived it. */
export const CHASE_PREFIX = "after-";

/** Every session opens with a handshake step, recorded under its first probe. */
export const HANDSHAKE_STEP = "handshake";
/** What a probe records before its first step (an abandoned probe's note). */
export const START_STEP = "start";

function spec<const S extends Readonly<Record<string, string>>>(p: Omit<ProbeSpec<S>, "families"> & { families?: readonly string[] }): ProbeSpec<S> {
  return { ...p, families: p.families ?? [] };
}

/** Whether a probe records under this step name. */
export function declares(p: ProbeSpec, step: string): boolean {
  return (
    step === HANDSHAKE_STEP ||
    step === START_STEP ||
    Object.values(p.steps).includes(step) ||
    p.families.some((f) => step.startsWith(f) && step.length > f.length)
  );
}

/** A step name of one of a probe's parametric families. */
export function familyStep(p: ProbeSpec, prefix: string, param: string | number): string {
  if (!p.families.includes(prefix)) throw new Error(`probe ${p.name} declares no step family ${prefix}`);
  return `${prefix}${param}`;
}

export function assertDeclared(p: ProbeSpec, step: string): void {
  if (!declares(p, step)) throw new Error(`probe ${p.name} declares no step ${JSON.stringify(step)}`);
}

export const HANDSHAKE = spec({
  name: "handshake",
  summary: "sends handshake (contextgraph/1.0) and records the handshake_ack",
  handshake: true,
  session: "shared",
  steps: {},
});

export const SAMPLE_QUERY = spec({
  name: "sample-query",
  summary: "sends one query with a generous budget (max_frames 64, max_tokens 1000000)",
  handshake: true,
  session: "shared",
  steps: { sample: "sample" },
});

export const BUDGET_SQUEEZE = spec({
  name: "budget-squeeze",
  summary:
    "after a generous query: max_frames 1, 0, one below the count served (and, for a signed answer, result sizes 2, 3 and 5); max_tokens 0, 1, one below the cheapest frame's cost, each frame's exact cost, one above the cheapest, one below the sum served",
  handshake: true,
  session: "shared",
  steps: { generous: "generous", oneFrame: "one-frame", tightTokens: "tight-tokens" },
  families: ["tokens-", "frames-"],
});
export const tokensStep = (label: string): string => familyStep(BUDGET_SQUEEZE, "tokens-", label);
export const framesStep = (label: string | number): string => familyStep(BUDGET_SQUEEZE, "frames-", label);

export const KINDS_QUERY = spec({
  name: "kinds-query",
  summary:
    "after a discovery query: kinds [k] for each declared or served kind (up to 16; 64 at exhaustive depth; served but undeclared ones first), served kinds in pairs, a kind with an anchor on a frame of another kind, a kind with as_of, and a base kind the provider does not declare",
  handshake: true,
  session: "shared",
  steps: { discover: "discover-kinds", unserved: "unserved-kind" },
  families: ["kind-", "kinds-pair-", "kinds-anchored-", "kinds-as-of-"],
});
export const kindStep = (kind: string): string => familyStep(KINDS_QUERY, "kind-", kind);
export const kindPairStep = (i: number): string => familyStep(KINDS_QUERY, "kinds-pair-", i);
export const kindAnchoredStep = (i: number): string => familyStep(KINDS_QUERY, "kinds-anchored-", i);
export const kindAsOfStep = (i: number): string => familyStep(KINDS_QUERY, "kinds-as-of-", i);

export const AS_OF = spec({
  name: "as-of",
  summary:
    "queries unpinned, then pinned with as_of at each served window's edges: a second before and at valid_from, a second before, at and after valid_to, and a day outside each",
  handshake: true,
  session: "shared",
  steps: { unpinned: "unpinned" },
  families: ["pinned-"],
});
export const pinnedStep = (i: number): string => familyStep(AS_OF, "pinned-", i);

export const GRAPH_ANCHORS = spec({
  name: "graph-anchors",
  summary:
    "with capabilities.graph: queries unanchored, then anchored with max_frames 1 on each served frame's uri (zero hops) and on each relation's target_uri (one hop), then anchored with a generous budget",
  handshake: true,
  session: "shared",
  steps: { unanchored: "unanchored", anchorUri: "anchor-uri", anchorRelation: "anchor-relation", anchorRank: "anchor-rank" },
  families: ["anchor-uri-", "anchor-target-"],
});
export const anchorUriStep = (i: number): string => familyStep(GRAPH_ANCHORS, "anchor-uri-", i);
export const anchorTargetStep = (i: number): string => familyStep(GRAPH_ANCHORS, "anchor-target-", i);

export const REPRESENTATIONS_QUERY = spec({
  name: "representations",
  summary: "queries once preferring each representation the provider advertises",
  handshake: true,
  session: "shared",
  steps: {},
  families: ["prefer-"],
});
export const preferStep = (r: string): string => familyStep(REPRESENTATIONS_QUERY, "prefer-", r);

export const EMBEDDING = spec({
  name: "embedding",
  summary: "with an embeddings_fingerprint: queries with an embedding of the declared dimension",
  handshake: true,
  session: "shared",
  steps: { ok: "embedding-ok" },
});

/** The identity verify is asked about that no provider served. */
export const NEVER_SERVED_ID = "cgp-conform:never-served";

export const VERIFY = spec({
  name: "verify",
  summary:
    "with capabilities.verify: verifies identities just served, then with each digest mutated by one hex digit, then one never served, then the served ids with their case flipped, then the served ids without a digest",
  handshake: true,
  session: "shared",
  survivalJudgedBy: "V2",
  survivalOf: ["verify"],
  steps: {
    served: "served",
    verifyServed: "verify-served",
    verifyMutated: "verify-mutated",
    verifyNeverServed: "verify-never-served",
    verifyCase: "verify-case-flipped",
    verifyDigestless: "verify-digestless",
  },
});

export const FOREIGN_VERSION_PROBE = spec({
  name: "foreign-version",
  summary: `sends handshake with protocol_version ${FOREIGN_VERSION} and waits for the answer`,
  handshake: false,
  session: "own",
  atomic: true,
  survivalJudgedBy: "H3",
  steps: { foreign: "foreign-handshake" },
});

/**
 * R1 stimuli, in order. Each is followed by a valid query that must still be
 * answered. `reply`: whether R1's SHOULD (reply bad_request) binds it, read
 * from R1 ("A provider MUST NOT crash on a malformed line or bad request. It
 * SHOULD reply error with code bad_request"), §2 ("Every message is a single
 * JSON object — an envelope"; "stdio: exactly one envelope per line,
 * newline-delimited (NDJSON)"; "An envelope with no id is a notification —
 * it expects no reply") and RFC 8259, the JSON those lines are written in.
 * An object with neither type nor id could be a notification, which §2 says
 * is ignored: it is sent, but no reply is expected. To a provider that
 * declares correlation, the request-shaped stimuli carry an id (so only one
 * reading fits, and H4 can judge the error) and a typeless request with an
 * id is added.
 */
export interface MalformedStimulus {
  step: string;
  what: string;
  /** A raw line (written as UTF-8), or an object sent as JSON (with `id` added for a correlating provider). */
  raw?: string;
  env?: Record<string, unknown>;
  id?: string;
  /** The exact bytes of a line that is not UTF-8. */
  bytes?: readonly number[];
  /** How the JSON of `env` is spelt on the wire, when not as JSON.stringify writes it (a raw control byte, a trailing CR). */
  spell?: (json: string) => string;
  reply: boolean;
  /**
   * A well-formed request a provider may serve: to a lock-step provider, the
   * probe awaits its answer before the valid query, so frames answering it
   * are never taken for that query's.
   */
  servable?: boolean;
  /** Not malformed at all: a valid query, to be answered as one (frames), never as a malformed line. */
  valid?: boolean;
  correlatedOnly?: boolean;
}

/** A query body any provider can serve, for the stimuli that spell one oddly. */
const BODY = { kinds: [], anchors: [], max_frames: 8, max_tokens: 2000 };

export const MALFORMED_STIMULI: readonly MalformedStimulus[] = [
  { step: "bad-garbage", what: "a line that is not JSON", raw: "this is not json {{", reply: true },
  { step: "bad-empty-object", what: "an empty JSON object (no type, no id: it may be a notification, so no reply is expected)", raw: "{}", reply: false },
  { step: "bad-array", what: "a JSON array", raw: "[]", reply: true },
  {
    step: "bad-typeless-request",
    what: "an object with an id but no type",
    env: { query: { goal: "no type" } },
    id: "bad-typeless",
    reply: true,
    correlatedOnly: true,
  },
  { step: "bad-query-no-body", what: "a query with no query member", env: { type: "query" }, id: "bad-no-body", reply: true },
  {
    step: "bad-query-wrong-types",
    what: "a query whose fields have the wrong types",
    env: { type: "query", query: { goal: 7, kinds: "doc", max_frames: "many" } },
    id: "bad-wrong-types",
    reply: true,
  },
];

/**
 * The stimuli of probe malformed-bytes, read as MALFORMED_STIMULI are: lines
 * whose bytes a line reader or a JSON parser may trip on. They run in a
 * process of their own, so a provider that dies on each of them (and on
 * every malformed line before) does not use up the fresh sessions that
 * malformed-input and the probes beside it may be resumed in. Invalid UTF-8
 * comes last: it ends the read loop of providers whose line reader decodes
 * strictly.
 */
export const BYTE_STIMULI: readonly MalformedStimulus[] = [
  // ASCII bytes in the JSON grammar, but no Unicode: RFC 8259 §8.2 leaves "the behavior of software that receives
  // JSON texts containing such values" open, so a conformant parser may take the goal as a string and serve it, or
  // refuse it. Served or refused as bad_request, both honest: survival binds, the SHOULD does not.
  {
    step: "bad-lone-surrogate",
    what: "a query whose goal is a lone surrogate escape (\\ud800: JSON's grammar, not Unicode)",
    env: { type: "query", query: { goal: "\ud800", ...BODY } },
    id: "bad-surrogate",
    reply: false,
    servable: true,
  },
  // "the control characters (U+0000 through U+001F)" MUST be escaped in a JSON string (RFC 8259 §7): the line is no
  // JSON text, so no envelope, a malformed line. Survival binds, and so does the SHOULD.
  {
    step: "bad-nul-byte",
    what: "a query with a raw NUL byte inside a string (no JSON: control characters are escaped)",
    env: { type: "query", query: { goal: "nul\u0000byte", ...BODY } },
    id: "bad-nul",
    spell: (json) => json.replace("\\u0000", "\u0000"),
    reply: true,
  },
  // A bare CR inside a string is a raw control character as well (§7): no JSON, a malformed line; a reader that
  // splits lines at CR sees two fragments, neither an envelope. Survival and the SHOULD bind.
  {
    step: "bad-bare-cr",
    what: "a query with a bare CR inside a string (no JSON; a reader splitting lines at CR sees two fragments)",
    env: { type: "query", query: { goal: "line one\rline two", ...BODY } },
    id: "bad-cr",
    spell: (json) => json.replace("\\r", "\r"),
    reply: true,
  },
  // A CR right before the LF is JSON whitespace (RFC 8259 §2: ws = %x20 / %x09 / %x0A / %x0D), so the line holds
  // exactly one envelope, a valid query: not malformed, and a bad_request would be the wrong answer. Survival binds
  // (to a reader that keeps the CR it is a malformed line, which it must survive too); answered as a query it
  // should be, though no keyword says so.
  {
    step: "bad-crlf",
    what: "a valid query ending in CR LF (CR is JSON whitespace: one envelope, a query)",
    env: { type: "query", query: { goal: "crlf", ...BODY } },
    id: "crlf",
    spell: (json) => `${json}\r`,
    reply: false,
    servable: true,
    valid: true,
  },
  // "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"
  // (RFC 8259 §8.1): FF FE is no JSON text, so no envelope, a malformed line. Survival binds, and so does the SHOULD.
  { step: "bad-invalid-utf8", what: "a line of bytes that are not UTF-8", bytes: [0xff, 0xfe], reply: true },
];

/** The stimuli of a table a provider gets, and the exact line of each: text, or bytes when they are not UTF-8. */
export function malformedLines(
  correlated: boolean,
  table: readonly MalformedStimulus[] = MALFORMED_STIMULI,
): Array<MalformedStimulus & { line: string | Uint8Array }> {
  return table
    .filter((st) => correlated || !st.correlatedOnly)
    .map((st) => {
      if (st.bytes) return { ...st, line: Uint8Array.from(st.bytes) };
      const json = st.raw ?? JSON.stringify(correlated && st.id !== undefined ? { ...st.env!, id: st.id } : st.env);
      return { ...st, line: st.spell ? st.spell(json) : json };
    });
}

export const MALFORMED_INPUT = spec({
  name: "malformed-input",
  summary:
    "sends malformed lines and bad requests (to a correlating provider, the request-shaped ones with an id, and a typeless request with an id), each followed by a valid query",
  handshake: true,
  session: "malformed",
  survivalJudgedBy: "R1",
  steps: Object.fromEntries(MALFORMED_STIMULI.map((s) => [s.step, s.step])),
  families: ["after-bad-"],
});

export const MALFORMED_BYTES = spec({
  name: "malformed-bytes",
  summary:
    "sends lines a line reader or JSON parser may trip on: a query whose goal is a lone surrogate escape, a raw NUL and a bare CR inside a string, a valid query ending in CR LF, and the bytes FF FE (not UTF-8); each followed by a valid query",
  handshake: true,
  session: "malformed",
  survivalJudgedBy: "R1",
  steps: Object.fromEntries(BYTE_STIMULI.map((s) => [s.step, s.step])),
  families: ["after-bad-"],
});

/** The valid query that follows a stimulus, to learn whether the provider survived it. */
export const afterStep = (step: string, probe: ProbeSpec = MALFORMED_INPUT): string => familyStep(probe, "after-bad-", step.replace(/^bad-/, ""));

export const UNKNOWN_TYPE = spec({
  name: "unknown-type",
  summary: "sends an unknown envelope type with an id (correlating providers only), then one without, then a valid query",
  handshake: true,
  session: "malformed",
  survivalJudgedBy: "S2-framing",
  steps: { request: "unknown-request", notification: "unknown-notification", after: "after-notification" },
});

/** Ids that differ only in case, with non-ASCII, slash, space and a check mark: echoed verbatim or not at all. */
export const CORRELATION_IDS = {
  first: "Q-Äb/c 1✓",
  second: "q-äB/c 1✓",
  error: "E-Ñ/2 ✓",
  malformed: "M-Ø/4 ✓",
  embedding: "D-Å/5 ✓",
  unknownType: "T-Ç/6 ✓",
  verify: "V-ß/3 ✓",
  badVerify: "W-Œ/7 ✓",
} as const;

export const CORRELATION = spec({
  name: "correlation",
  summary:
    "with capabilities.correlation: two queries whose ids differ only in case, then every request that can end in an error (an unadvertised representation, a malformed query, a wrong-length embedding, an unknown request type, a verify, a malformed verify), all with unusual ids",
  handshake: true,
  session: "own",
  steps: {
    first: "id-first",
    second: "id-second",
    refused: "id-refused",
    malformed: "id-malformed",
    embedding: "id-embedding",
    unknownType: "id-unknown-type",
    verify: "id-verify",
    badVerify: "id-bad-verify",
  },
  families: ["after-id-"],
});
/** The valid query chasing a request that may get no reply, so the probe learns where its replies end. */
export const afterIdStep = (step: string): string => familyStep(CORRELATION, "after-id-", step.replace(/^id-/, ""));

/** Members no revision defines, at every level a host message has. */
export const DECORATION = {
  envelope: { "acme:trace": { span: "7f3a", sampled: true } },
  query: { "acme:hint": { boost: ["docs/"], weight: 0.5 }, future_field: [1, 2, 3] },
  handshake: { client: { name: "cgp-conform", "acme:build": 7 } },
} as const;

export const UNKNOWN_MEMBERS = spec({
  name: "unknown-members",
  summary: "handshakes with unknown members, then sends the same query plain and with unknown members at the envelope and query level",
  handshake: false,
  session: "own",
  atomic: true,
  steps: { plain: "plain", decorated: "decorated" },
});

/** A namespaced kind no provider of this revision serves. */
export const UNKNOWN_KIND = "acme:diagram";

export const UNKNOWN_KIND_PROBE = spec({
  name: "unknown-kind",
  summary: `queries for kinds ["${UNKNOWN_KIND}"], then for it beside a declared kind, then a valid query`,
  handshake: true,
  session: "shared",
  survivalJudgedBy: "R1",
  steps: { unknown: "unknown-kind", mixed: "mixed-kinds", after: "after-unknown-kind" },
});

export const EMBEDDING_MISMATCH = spec({
  name: "embedding-mismatch",
  summary: "with an embeddings_fingerprint: queries with an embedding three dimensions too long, then (once answered) a valid query",
  handshake: true,
  session: "shared",
  atomic: true,
  steps: { wrong: "embedding-wrong", after: "after-embedding-wrong" },
});

export const UNADVERTISED_REPRESENTATION = spec({
  name: "unadvertised-representation",
  summary: "queries preferring a representation the provider does not advertise",
  handshake: true,
  session: "shared",
  atomic: true,
  steps: { unadvertised: "unadvertised" },
});

export const SHUTDOWN = spec({
  name: "shutdown",
  summary:
    "sends shutdown and waits for the provider to exit by itself (stdio only: over HTTP it records shutdown as not sent, since the run's other sessions share the provider's server)",
  handshake: true,
  session: "shared",
  atomic: true,
  survivalJudgedBy: "R2",
  steps: { shutdown: "shutdown" },
});

/**
 * Not an exchange: after the sessions, the files that served frames' file
 * provenance names are read, under the trusted roots only, and recorded.
 */
export const PROVENANCE_FILES = spec({
  name: "provenance-files",
  summary: "sends nothing: re-reads the file:// documents that frames' file provenance names (only under the trusted roots) into the transcript",
  handshake: false,
  session: "own",
  steps: { read: "read" },
});

/**
 * Every probe, in transcript order (and, within a session, the order they run
 * in): shutdown ends the shared session, so it comes last.
 */
export const PROBE_SPECS: readonly ProbeSpec[] = [
  HANDSHAKE,
  SAMPLE_QUERY,
  BUDGET_SQUEEZE,
  KINDS_QUERY,
  AS_OF,
  GRAPH_ANCHORS,
  REPRESENTATIONS_QUERY,
  EMBEDDING,
  VERIFY,
  FOREIGN_VERSION_PROBE,
  MALFORMED_INPUT,
  MALFORMED_BYTES,
  UNKNOWN_TYPE,
  CORRELATION,
  UNKNOWN_MEMBERS,
  UNKNOWN_KIND_PROBE,
  EMBEDDING_MISMATCH,
  UNADVERTISED_REPRESENTATION,
  SHUTDOWN,
  PROVENANCE_FILES,
];

export function specByName(name: string): ProbeSpec {
  const p = PROBE_SPECS.find((x) => x.name === name);
  if (!p) throw new Error(`no probe named ${name}`);
  return p;
}
