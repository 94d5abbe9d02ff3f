/**
 * Every normative sentence of the spec, held: each sentence of the three spec
 * texts with an uppercase MUST, MUST NOT, SHOULD or SHOULD NOT (src/docs/normative.ts
 * cuts them) is placed here once, by the start of its text: claimed by the
 * checks (provider ids, host:… ids) that hold it, or listed with the reason
 * none can, or both where a check holds part of it. test/completeness.test.ts
 * fails on a sentence placed nowhere (one added to the spec), twice, or on a
 * place that names no sentence; docs/coverage.md and `list --coverage` are
 * rendered from this table (src/docs/coverage.ts).
 */
import type { SpecText } from "./normative.ts";

/** Why no check holds a sentence (or the part of it no check holds). */
export const REASONS = {
  keywords: "defines the keywords themselves",
  reader: "addresses the reader's understanding; it asks for no behaviour",
  cites: "names another sentence's keyword; that sentence is placed on its own",
  verifier: "binds a verifier of attestations, here cgp-conform itself, which its own tests hold",
  "host-internal": "happens inside a host: nothing on the wire or in the host's output shows it",
  "self-report": "attribution records are a host's self-reports, not wire messages",
  unobservable: "not observable: the wire cannot show it",
  "not-reached": "observable, but no scenario or probe reaches it yet",
} as const;
export type Reason = keyof typeof REASONS;

export interface Placement {
  in: SpecText;
  /** The sentence's text from its start, as src/docs/normative.ts cuts it (enough of it to name one sentence). */
  quote: string;
  /** The checks that hold it. */
  by?: readonly string[];
  /** Why none holds it, or the part of it none holds. */
  why?: Reason;
  /** The reason in this sentence's terms. */
  note?: string;
}

const ps = (quote: string, by: readonly string[], why?: Reason, note?: string): Placement => ({
  in: "protocol-surface",
  quote,
  by,
  ...(why ? { why } : {}),
  ...(note ? { note } : {}),
});
const cr = (quote: string, by: readonly string[], why?: Reason, note?: string): Placement => ({
  in: "context-reuse",
  quote,
  by,
  ...(why ? { why } : {}),
  ...(note ? { note } : {}),
});

export const COVERAGE: readonly Placement[] = [
  // protocol-surface
  ps("The key words MUST, MUST NOT, SHOULD", [], "keywords"),
  ps("An envelope MUST NOT contain a literal newline.", ["S2-framing", "host:S2-framing"]),
  ps("A receiver MUST ignore an envelope member it does not recognise", ["U1", "S2-framing", "host:U1", "host:S2-unknown-type"]),
  ps("A provider MUST reply to handshake with a handshake_ack", ["H1"]),
  ps("provider.name and provider.version MUST NOT be empty.", ["H2"]),
  ps("A version-family mismatch MUST be reported as a named error", ["H3", "host:H3"]),
  ps("A provider declaring capabilities.correlation MUST echo", ["H4"]),
  ps(
    "An implementation SHOULD compare major families",
    ["H3"],
    "not-reached",
    "a host meeting a later minor of its family (contextgraph/1.7): no scenario acknowledges one",
  ),
  ps("- A host MUST NOT send an", ["host:H4"]),
  ps(
    "A host MUST NOT auto-enable a provider declaring egress: true.",
    [],
    "host-internal",
    "how a host enables a provider happens inside it; a payload sent to an egress provider before consent is host:C2's",
  ),
  ps("It MUST gate it behind explicit, named, revocable consent.", [], "host-internal", "how consent is asked for and recorded happens inside the host"),
  ps("A host MUST NOT transmit a query payload to an egress provider", ["host:C2"]),
  ps(
    "A provider SHOULD declare egress: true honestly",
    [],
    "unobservable",
    "whether data leaves the machine cannot be seen on a stdio pipe; C4 makes the transport, not the claim, decide",
  ),
  ps("A host's HTTP transport MUST treat every non-loopback provider as egress", ["host:C4"]),
  ps("A provider MUST NOT declare an off-machine egress_scope alongside egress: false", ["C5"]),
  ps("A host MUST refuse a query, with a typed error naming the scopes", ["host:C6"]),
  ps("A host's HTTP transport MUST use TLS for every non-loopback provider", ["host:C7"]),
  ps("A host MUST NOT log, or place in an error surfaced off-machine", ["host:C8"]),
  ps("A graph-capable provider SHOULD boost frames", ["G3"]),
  ps("When kinds is non-empty, a provider MUST NOT return", ["Q1"]),
  ps("A host MUST NOT populate query.embedding", ["host:E1"]),
  ps("A provider receiving a vector whose length contradicts", ["E1"]),
  ps("score MUST be in [0, 1].", ["F1"]),
  ps("title MUST be non-empty.", ["F2"]),
  ps("citation_label MUST be non-empty", ["F3"]),
  ps("valid_from, valid_to, recorded_at, and as_of MUST match", ["F4"]),
  ps("Provenance of kind file MUST carry a digest", ["F5"]),
  ps("A ProvenanceAttestation MUST be detached", ["F6"]),
  ps("An attestation's signed_commitment MUST be the sha256", ["F7"]),
  ps(
    "A verifier that does not recognise an attestation's algorithm",
    [],
    "verifier",
    "cgp-conform reports an unknown algorithm as uncheckable (info, under S6-signatures) and never counts such a frame as attested",
  ),
  ps("A host MUST NOT reject or drop a frame solely because it carries an attestation", ["host:F9"]),
  ps("A host MUST NOT apply a cross-provider score threshold", ["host:F10", "host:CR1-render"]),
  ps(
    "A host that orders frames from different providers by raw score MUST document it",
    [],
    "unobservable",
    "a host's documentation is not on the wire; host:CR1-order reads an order by score as the strategy §7 permits and warns",
  ),
  ps("An attestation MUST travel beside the frames it covers", ["F11", "F6"]),
  ps("A frame_attestations entry MUST name the full", ["F11"]),
  ps("A result_attestation's signed_commitment MUST be the §6.5.3 Merkle root", ["F12"]),
  ps("An inclusion_proof is OPTIONAL, and when present MUST recompute", ["F13"]),
  ps(
    "A host that retains a strict subset of a signed result set",
    [],
    "host-internal",
    "a host keeps the subset in its own composition, which nothing on the wire shows",
  ),
  ps("content_digest, when present, MUST match", ["D1"]),
  ps("Two frames with the same (provider id, frame id, content_digest) MUST be treated", ["host:D2"]),
  ps("A frame whose content_digest is absent MUST NOT be reused unchecked", ["host:D3"]),
  ps(
    "A content_digest is a claim about the inline bytes only",
    [],
    "not-reached",
    "a host reusing a digest-carrying body without verify: the reuse scenario judges reuse after a verdict, not reuse with none asked",
  ),
  ps("A full frame MUST carry content and MUST NOT carry", ["P1"]),
  ps("A compact frame MUST carry all of", ["P2"]),
  ps("A reference frame MUST carry content_ref", ["P3"]),
  ps("A host MUST NOT populate query.representation_preferences", ["P5", "host:P5"]),
  ps("This has three consequences a 1.0 implementer MUST understand:", [], "reader"),
  ps(
    "- A provider communicating over a transport binding (stdio, HTTP) SHOULD NOT",
    [],
    "not-reached",
    "a reference frame served over stdio or HTTP: P3 holds its shape, nothing yet warns on its being served",
  ),
  ps("It SHOULD return", [], "not-reached", "the same SHOULD, said positively"),
  ps("- A host composing a", ["host:S6-reference"]),
  ps("Verifiers MUST distinguish these outcomes", [], "verifier", "S6-signatures reports an unknown algorithm (info) apart from a signature that fails (fail)"),
  ps(
    "Implementations SHOULD use a strict Ed25519 verifier",
    ["S6-signatures"],
    "verifier",
    "cgp-conform verifies strictly; S6-signatures holds a provider's signatures to what a strict verifier accepts",
  ),
  ps("The sum of token_cost across returned frames MUST NOT exceed", ["B1"]),
  ps("A host MUST drop, with a loud report", ["host:B2"]),
  ps("token_cost MUST equal ceil", ["B3"]),
  ps("The number of returned frames MUST NOT exceed max_frames.", ["B4"]),
  ps("A budget token is not a prediction of any model's tokenizer", [], "host-internal", "what a host counts in model tokens happens inside it"),
  ps("A host MUST be able to produce a usage report", ["host:UR1"]),
  ps("The report MUST reference those frames by their FrameId", ["host:UR1"]),
  ps("Every Relation MUST carry a non-empty display_name", ["G1"]),
  ps("target_uri MUST be a non-empty URI.", ["G2"]),
  ps("A provider declaring capabilities.graph SHOULD boost", ["G3"]),
  ps("A provider declaring capabilities.graph and given a non-empty anchors MUST return", ["G4"]),
  ps('G4 gives "anchored" a decidable predicate', [], "cites"),
  ps("The rel vocabulary is open", ["host:U2"]),
  ps("A verify request MUST carry frame identities only", ["host:V1"]),
  ps("A host SHOULD include only identities carrying a content_digest", ["host:V1"]),
  ps("A provider declaring capabilities.verify MUST answer a verify", ["V2", "V3"]),
  ps("A requested identity that comes back with no verdict", ["host:V2"]),
  ps("A host MUST reuse a held frame body only on valid", ["host:V3"]),
  ps("A host MUST NOT keep serving its stored copy", ["host:V4"]),
  ps("incompatible_version is the named error H3 requires", ["host:S10-incompatible"]),
  ps("An unrecognised code MUST be treated as internal.", ["host:X1"]),
  ps("An absent code MUST be treated as internal.", ["host:X2"]),
  ps("A provider MUST NOT crash on a malformed line or bad request.", ["R1"]),
  ps("It SHOULD reply error with code bad_request.", ["R1"]),
  ps("A provider MUST tear down cleanly on shutdown.", ["R2"]),
  ps("A host MUST treat frame content as untrusted data", ["host:R3"]),
  ps(
    "A host realizing R3 SHOULD follow the reference prompt-composition module",
    [],
    "host-internal",
    "which module a host composes with is its own; what reaches the prompt is host:R3's",
  ),
  ps("A receiver MUST ignore an object member it does not recognise", ["U1", "host:U1"]),
  ps("A host that receives an unrecognised kind MUST treat the frame as opaque evidence", ["host:U2"]),
  ps("New open vocabularies (rel, error code, egress_scope) grow", ["host:U2", "host:X1"]),
  ps("Names containing a : are reserved for namespacing", ["U3"]),
  ps("The reference types ignore unknown members on deserialization", ["U1", "host:U1"]),
  ps("An implementation MUST NOT mint a separate attribution id.", [], "self-report"),
  ps("A host reporting attribution MUST report selected, rendered, and cited", [], "self-report"),
  ps("An attribution record MUST be reconcilable", [], "self-report"),
  // context-reuse (its tables number D and V the older way; the checks are protocol-surface's)
  cr("MUST, MUST NOT, SHOULD, MAY in bold", [], "keywords"),
  cr("Such a frame is not verifiable: a host MUST treat it as un-revalidatable", ["host:D3"]),
  cr("Two frames with the same identity MUST have the same content bytes", ["D1", "V2"]),
  cr("MUST emit them in canonical order", ["host:CR1-order"]),
  cr("MUST NOT let a frame's score or token_cost affect the rendered bytes", ["host:CR1-render"]),
  cr("SHOULD de-duplicate identical identities", ["host:D2"]),
  cr(
    "To maximize cache hits, a host SHOULD additionally prefer append-only composition",
    [],
    "not-reached",
    "an order across turns: no scenario adds frames to a held set and compares the blocks",
  ),
  cr("Frames with the same `FrameId` MUST have identical content bytes", ["D1", "V2"]),
  cr("A host composing a frame set MUST emit frames in canonical `FrameId` order", ["host:CR1-order"]),
  cr("Composition MUST NOT depend on `score` or `token_cost`.", ["host:CR1-render"]),
  cr("A frame with no `content_digest` MUST be treated as unverifiable", ["host:D3"]),
  cr("A host MUST be able to produce a usage report", ["host:UR1"]),
  cr("The vocabulary is extensible by namespaced custom scopes", ["U3"]),
  cr("A scope with no matching receipt MUST cause the query to be refused", ["host:C6"]),
  cr("A provider MUST declare its egress scopes", ["C5", "U3"]),
  cr("A host MUST refuse a query, with a typed error naming the scopes", ["host:C6"]),
  cr("A host MUST keep reusing a held frame only on an explicit valid;", ["host:V3", "host:V4"]),
  cr("Against a provider that doesn't, the host MUST fall back to re-querying", ["host:CR4-fallback"]),
  cr(
    "A host SHOULD re-verify held frames at turn boundaries",
    [],
    "host-internal",
    "when to verify is host policy, by the sentence before it; a host's freshness window is its own",
  ),
  cr("A provider advertising `verify` MUST answer honestly by comparing digests", ["V2"]),
  cr("It MUST NOT answer `valid` for content bytes it is not serving.", ["V2"]),
  cr("A host MUST keep reusing a held frame only on an explicit `valid`", ["host:V3"]),
  cr("A host MUST NOT send `context/verify` to a provider that does not advertise", ["host:V1", "host:CR4-fallback"]),
];
