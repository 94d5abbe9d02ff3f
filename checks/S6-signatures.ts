import { defineCheck, type Evidence } from "./kit/check.ts";
import type { SignatureVerdict } from "../src/attest/audit.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "./kit/attestations.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";

/** The attestation a finding names: a frame_attestations entry (its index and the frame it names), or the result_attestation (null). */
type Of = { entry: number; frame: Param } | null;
const what = (of: Of): string => (of === null ? "result_attestation" : `frame_attestations[${of.entry}] (frame ${show(of.frame)})`);
/** why: the strict verifier's reason, in its words. */
type Refused = { of: Of; why: string };
/** Each code's findings on a frame's attestation and on the result's are apart: "which one" is part of the defect. */
type Signed = { signed: "frame" | "result" };

const F = findings({
  verifies: { ok: true, says: () => "every attestation signature verifies under its published key (strict Ed25519)" },
  // F8: "I cannot check this" is never "this is good" — and never the provider's failure (F9).
  "unknown-algorithm": {
    cites: '"I cannot check this" is never "this is good"',
    reading: "an algorithm the verifier does not know leaves the frame unattested (F8), which is no provider's fault (F9)",
    level: "MAY",
    apart: ["signed"],
    says: (p: Signed & { of: Of; algorithm: Param }) =>
      `${what(p.of)} uses algorithm ${show(p.algorithm)}: uncheckable (F8), so the frame is not counted as attested`,
  },
  "unknown-key": {
    apart: ["signed"],
    says: (p: Signed & { of: Of; key_id: Param }) => `${what(p.of)} names key_id ${show(p.key_id)}, which handshake_ack.attester_keys does not publish`,
    expected: () => "a published key_id",
    actual: (p: { key_id: Param }) => show(p.key_id),
  },
  "bad-signature": {
    apart: ["signed"],
    says: (p: Signed & { of: Of; key: Param }) => `${what(p.of)}: the signature does not verify under key ${show(p.key)}`,
    expected: () => "a valid Ed25519 signature over the signed commitment",
    actual: () => "bad signature",
  },
  "malformed-key": {
    apart: ["signed", "why"],
    says: (p: Signed & Refused & { key: Param }) => `${what(p.of)}: key ${show(p.key)} is refused by a strict verifier: ${p.why}`,
    expected: () => "a canonical, full-order Ed25519 public key",
    actual: (p: Refused) => p.why,
  },
  "malformed-signature": {
    apart: ["signed", "why"],
    says: (p: Signed & Refused) => `${what(p.of)}: the signature is refused by a strict verifier: ${p.why}`,
    expected: () => "a canonical 64-byte Ed25519 signature",
    actual: (p: Refused) => p.why,
  },
  "malformed-commitment": {
    apart: ["signed", "why"],
    says: (p: Signed & Refused) => `${what(p.of)}: signed_commitment is malformed: ${p.why}`,
    expected: () => "sha256:<64 lowercase hex>",
    actual: (p: Refused) => p.why,
  },
});

function judge(v: SignatureVerdict, of: Of, keyId: unknown, line: number): Evidence | undefined {
  const at = { lines: [line] };
  const signed = of === null ? ("result" as const) : ("frame" as const);
  switch (v.kind) {
    case "valid":
      return F.say("verifies", {}, at);
    case "not-signed":
      return undefined;
    case "unknown-algorithm":
      return F.say("unknown-algorithm", { signed, of, algorithm: v.algorithm as Param }, at);
    case "unknown-key":
      return F.say("unknown-key", { signed, of, key_id: v.key_id as Param }, at);
    case "bad-signature":
      return F.say("bad-signature", { signed, of, key: keyId as Param }, at);
    case "malformed-key":
      return F.say("malformed-key", { signed, of, key: keyId as Param, why: v.why }, at);
    case "malformed-signature":
      return F.say("malformed-signature", { signed, of, why: v.why }, at);
    case "malformed-commitment":
      return F.say("malformed-commitment", { signed, of, why: v.why }, at);
    case "commitment-mismatch":
      return undefined;
  }
}

/**
 * @section 6.5.4 (no anchor number)
 * Stimulus: every attestation in the answers of the shared session's querying
 * probes (sample-query, budget-squeeze, kinds-query, as-of, graph-anchors,
 * representations, embedding, verify), verified over its signed commitment with the key its
 * key_id names in handshake_ack.attester_keys, by a strict verifier.
 * Reading: the SHOULD binds a verifier ("Implementations SHOULD use a strict
 * Ed25519 verifier"), which cgp-conform is; what binds the provider ("A
 * published key settles whether an attestation is built the way this section
 * requires") carries no keyword, and F9 degrades an unverifiable attestation
 * to none. So the check's level is NONE: a signature that does not verify
 * warns, and stays a warning under --strict.
 */
export default defineCheck({
  findings: F.table,
  id: "S6-signatures",
  follows: "F13",
  title: "Attestation signatures verify under the published keys",
  level: "NONE",
  requirement:
    "Implementations SHOULD use a strict Ed25519 verifier — one rejecting small-order public keys and non-canonical signature encodings. A signature two conforming verifiers can disagree about is not evidence. [A published key settles whether an attestation is built the way this section requires.]",
  probes: ATTESTATION_PROBES,
  score({ probe }) {
    const answers = audits(ATTESTATION_PROBES.map(probe)).filter((a) => a.audit.attested);
    if (answers.length === 0) return { skip: NOT_ATTESTED };
    const out: Evidence[] = [];
    for (const { line, audit } of answers) {
      for (const e of audit.entries) {
        if (e.signature) {
          const ev = judge(e.signature, { entry: e.index, frame: e.named.frame_id as Param }, e.keyId, line);
          if (ev) out.push(ev);
        }
      }
      if (audit.result) {
        const ev = judge(audit.result.signature, null, audit.result.keyId, line);
        if (ev) out.push(ev);
      }
    }
    return out.length > 0 ? out : { skip: "no attestation carries a signature" };
  },
});
