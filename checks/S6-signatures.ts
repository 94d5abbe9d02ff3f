import { defineCheck, type Evidence } from "./kit/check.ts";
import type { SignatureVerdict } from "../src/attest/audit.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "./kit/attestations.ts";
import { show } from "./kit/show.ts";

function judge(v: SignatureVerdict, what: string, keyId: unknown, line: number): Evidence | undefined {
  switch (v.kind) {
    case "valid":
      return { ok: true, message: "every attestation signature verifies under its published key (strict Ed25519)", lines: [line] };
    case "not-signed":
      return undefined;
    case "unknown-algorithm":
      // F8: "I cannot check this" is never "this is good" — and never the provider's failure (F9).
      return {
        ok: false,
        level: "MAY",
        message: `${what} uses algorithm ${show(v.algorithm)}: uncheckable (F8), so the frame is not counted as attested`,
        lines: [line],
      };
    case "unknown-key":
      return {
        ok: false,
        message: `${what} names key_id ${show(v.key_id)}, which handshake_ack.attester_keys does not publish`,
        expected: "a published key_id",
        actual: show(v.key_id),
        lines: [line],
      };
    case "bad-signature":
      return {
        ok: false,
        message: `${what}: the signature does not verify under key ${show(keyId)}`,
        expected: "a valid Ed25519 signature over the signed commitment",
        actual: "bad signature",
        lines: [line],
      };
    case "malformed-key":
      return {
        ok: false,
        message: `${what}: key ${show(keyId)} is refused by a strict verifier: ${v.why}`,
        expected: "a canonical, full-order Ed25519 public key",
        actual: v.why,
        lines: [line],
      };
    case "malformed-signature":
      return {
        ok: false,
        message: `${what}: the signature is refused by a strict verifier: ${v.why}`,
        expected: "a canonical 64-byte Ed25519 signature",
        actual: v.why,
        lines: [line],
      };
    case "malformed-commitment":
      return { ok: false, message: `${what}: signed_commitment is malformed: ${v.why}`, expected: "sha256:<64 lowercase hex>", actual: v.why, lines: [line] };
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
          const ev = judge(e.signature, `frame_attestations[${e.index}] (frame ${show(e.named.frame_id)})`, e.keyId, line);
          if (ev) out.push(ev);
        }
      }
      if (audit.result) {
        const ev = judge(audit.result.signature, "result_attestation", audit.result.keyId, line);
        if (ev) out.push(ev);
      }
    }
    return out.length > 0 ? out : { skip: "no attestation carries a signature" };
  },
});
