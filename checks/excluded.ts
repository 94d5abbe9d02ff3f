/**
 * Every anchor of protocol-surface that has no check here, and why: a
 * conformance suite that quietly omitted the rules it cannot check would be
 * the self-attestation the spec rejects (§11.1). A test holds this list and
 * the registry to the spec's anchors: each is checked or listed, never both.
 */
export const EXCLUDED: Readonly<Record<string, string>> = {
  C1: "host-side: a host gates an egress provider behind consent; nothing a provider sends can show it",
  C2: "host-side: a host's transmission rule (cgp-conform, as a host, holds itself to it)",
  C3: "not observable: whether data leaves the machine cannot be seen on a stdio pipe; C4 makes the transport, not the claim, decide",
  C4: "host-side: a host's HTTP transport classifies non-loopback providers",
  C6: "host-side: a host's consent receipts and the refusal they gate",
  C7: "host-side: a host's HTTP transport must use TLS",
  C8: "host-side: a host must not log credentials",
  F8: "verifier-side: binds cgp-conform, which reports an unknown algorithm as uncheckable (info) under S6-signatures and never counts such a frame as attested; a provider cannot break it",
  V1: "host-side: it binds the verify request, which the host sends (cgp-conform sends identities only, digest-bearing ones first); a body in a provider's verdict is V4's",
  F9: "host-side: a host must not drop a frame for an attestation it cannot verify",
  F10: "host-side: how a host composes scores across providers",
  D2: "host-side: deduplication and reuse across queries",
  D3: "host-side: reuse of digest-less frames",
  D4: "host-side: a host SHOULD confirm identity via verify before reuse",
  B2: "host-side: a host drops a provider violating B1 (B1 itself is checked)",
  UR1: "host-side: a usage report is a host artifact, not a wire message",
  X1: "host-side: how a host treats an unrecognised error code (U3 checks what a provider sends)",
  X2: "host-side: how a host treats an absent error code",
  R3: "host-side: how a host quotes frame content in a prompt",
  U2: "host-side: it binds a host receiving a frame of an unknown kind, and any receiver of the open vocabularies (rel, error code, egress_scope), none of which a host sends a provider; a provider asked for an unknown kind is held to Q1 (its frames) and R1 (it must not crash)",
  U4: "about the specification's evolution (no field repurposed within a family), not about any one provider",
  A1: "host-side: attribution records are host self-reports, not wire messages",
  A2: "host-side: attribution records are host self-reports, not wire messages",
  A3: "host-side: attribution records are host self-reports, not wire messages",
};
