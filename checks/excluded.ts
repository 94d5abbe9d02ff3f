/**
 * Every anchor of protocol-surface that has no check here, and why: a
 * conformance suite that quietly omitted the rules it cannot check would be
 * the self-attestation the spec rejects (§11.1). A test holds this list and
 * the registry to the spec's anchors: each is checked or listed, never both.
 */
export const EXCLUDED: Readonly<Record<string, string>> = {
  C1: "host-side, and not observable by itself: how a host enables a provider and records consent happens inside it; what auto-enabling shows on the wire, a query payload sent to an egress provider with no consent, is host:C2's",
  C3: "not observable: whether data leaves the machine cannot be seen on a stdio pipe; C4 makes the transport, not the claim, decide",
  F8: "verifier-side: binds cgp-conform, which reports an unknown algorithm as uncheckable (info) under S6-signatures and never counts such a frame as attested; a provider cannot break it",
  D4: "host-side: a host SHOULD confirm identity via verify before reuse",
  U4: "about the specification's evolution (no field repurposed within a family), not about any one provider",
  A1: "host-side: attribution records are host self-reports, not wire messages",
  A2: "host-side: attribution records are host self-reports, not wire messages",
  A3: "host-side: attribution records are host self-reports, not wire messages",
};

/**
 * Anchors with a provider-side check whose host half (a sentence that binds
 * "a host") no host check covers, and why: the completeness test counts a
 * host-bound anchor as checked only where a host check covers it, or it is
 * listed here or in EXCLUDED.
 */
export const HOST_HALF_UNCHECKED: Readonly<Record<string, string>> = {
  F13: "a host that retains a strict subset of a signed result keeps it in its own composition, which nothing on the wire shows",
};
