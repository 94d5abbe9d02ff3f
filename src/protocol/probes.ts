/**
 * Every probe's name, session and step names, declared once. Probes send
 * under these steps, checks read them back by the same constants, and a
 * probe view asked for a step its probe does not declare throws: a typo can
 * never make a check see nothing and skip in silence.
 *
 * The shape of a spec and the step names every probe shares are in
 * probe-spec.ts, the malformed lines in malformed-stimuli.ts; both are
 * re-exported here, so probes and checks import every probe name from one
 * place.
 */
import { FOREIGN_VERSION, PREFIX_FOREIGN_VERSION } from "../math/version.ts";
import { BYTE_STIMULI, MALFORMED_STIMULI } from "./malformed-stimuli.ts";
import { familyStep, type ProbeSpec, spec } from "./probe-spec.ts";

export { BYTE_STIMULI, MALFORMED_STIMULI, type MalformedStimulus, malformedLines } from "./malformed-stimuli.ts";
export {
  type Aim,
  assertDeclared,
  atDepth,
  CANARY_STEP,
  CHASE_PREFIX,
  DEFAULT_DEPTH,
  DEPTHS,
  type Depth,
  declares,
  EXHAUSTIVE_CAP,
  familyStep,
  GENEROUS,
  HANDSHAKE_STEP,
  type ProbeSpec,
  START_STEP,
} from "./probe-spec.ts";

export const HANDSHAKE = spec({
  name: "handshake",
  summary: "sends handshake (contextgraph/1.0) and records the handshake_ack",
  handshake: true,
  session: "shared",
  steps: {},
});

export const SAMPLE_QUERY = spec({
  name: "sample-query",
  summary:
    "sends one query with a generous budget (max_frames 64, max_tokens 1000000); for F5, digests the files its file provenance names (under the trusted roots only) before budget-squeeze sends the same query again",
  handshake: true,
  session: "shared",
  steps: { sample: "sample", filesBefore: "files-before-requery" },
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
    "with capabilities.verify: verifies identities just served, then with each digest mutated by one hex digit (and sends the same query again), then one never served, then the served ids with their case flipped, then the served ids without a digest",
  handshake: true,
  session: "shared",
  survivalJudgedBy: "V2",
  survivalOf: ["verify"],
  steps: {
    served: "served",
    verifyServed: "verify-served",
    verifyMutated: "verify-mutated",
    servedAgain: "served-again",
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

export const FOREIGN_PREFIX_PROBE = spec({
  name: "foreign-prefix",
  summary: `sends handshake with protocol_version ${PREFIX_FOREIGN_VERSION} (a foreign family whose name begins with the host's) and waits for the answer`,
  handshake: false,
  session: "own",
  atomic: true,
  survivalJudgedBy: "H3",
  steps: { foreign: "prefix-handshake" },
});

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
  summary:
    "sends an unknown envelope type with an id and a valid query after it (correlating providers only), then one without an id and a valid query after it",
  handshake: true,
  session: "malformed",
  survivalJudgedBy: "S2-framing",
  steps: { request: "unknown-request", afterRequest: "after-unknown-request", notification: "unknown-notification", after: "after-notification" },
});

/** Ids that differ only in case, with non-ASCII, slash, space and a check mark: echoed verbatim or not at all. */
export const CORRELATION_IDS = {
  first: "Q-Äb/c 1✓",
  second: "q-äB/c 1✓",
  /** Only digits: echoed as a JSON number, it is not the string sent. */
  digits: "20261203",
  /** The first id in Unicode's decomposed form (A and a combining diaeresis): a different string, to be echoed as itself. */
  decomposed: "Q-A\u0308b/c 1✓",
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
    "with capabilities.correlation: two queries whose ids differ only in case, one whose id is only digits, one whose id is the first's in decomposed Unicode, then every request that can end in an error (an unadvertised representation, a malformed query, a wrong-length embedding, an unknown request type, a verify, a malformed verify), all with unusual ids",
  handshake: true,
  session: "own",
  steps: {
    first: "id-first",
    second: "id-second",
    digits: "id-digits",
    decomposed: "id-decomposed",
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
  summary: "handshakes with unknown members, then sends the same query plain, with unknown members at the envelope and query level, and plain again",
  handshake: false,
  session: "own",
  atomic: true,
  steps: { plain: "plain", decorated: "decorated", plainAgain: "plain-again" },
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
  FOREIGN_PREFIX_PROBE,
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
