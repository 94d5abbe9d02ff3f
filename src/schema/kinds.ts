/**
 * What `cgp-conform validate --as` judges a document as, by name: plain data,
 * so the command line can list the names without loading a validator.
 * "envelope": by its `type` (the default); an envelope type: that branch,
 * whatever the document's `type` says; a bare kind: one $defs entry of
 * schema/contextgraph-envelope.schema.json, as fixture authors write them.
 */
export const ENVELOPE = "envelope";

/** The envelope `type`s (§2), each also a kind; a test holds this to the schema's root oneOf. */
export const ENVELOPE_KINDS = ["handshake", "handshake_ack", "query", "frames", "verify", "verified", "shutdown", "error"] as const;

/** Bare kind -> the $defs entry that judges it. Names differ from the envelope types they resemble: `frame` is not `frames`. */
export const BARE_KINDS: ReadonlyMap<string, string> = new Map([
  ["frame", "ContextFrame"],
  ["context-query", "ContextQuery"],
  ["result", "ContextQueryResult"],
  ["frame-id", "FrameId"],
  ["verdict", "FrameVerdict"],
  ["attestation", "Attestation"],
  ["frame-attestation", "FrameAttestation"],
  ["inclusion-proof", "InclusionProof"],
  ["capabilities", "Capabilities"],
  ["provider", "ProviderInfo"],
  ["relation", "Relation"],
  ["provenance-link", "ProvenanceLink"],
  ["content-ref", "ContentRef"],
]);

/** Every name --as takes, in --help order. */
export const KINDS: readonly string[] = [ENVELOPE, ...ENVELOPE_KINDS, ...BARE_KINDS.keys()];
