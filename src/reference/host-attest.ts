/**
 * What the reference host makes of the attestations of the frames it takes
 * (§6.5.4, against the keys the handshake_ack publishes): an attestation it
 * cannot verify (an unknown algorithm or key, a signature or commitment that
 * does not check) is reported on stderr, in words, and the frame kept as
 * unattested (F9). Then a line on stdout per frame taken.
 */
import { auditFrames, keysOf, type SignatureVerdict } from "../attest/audit.ts";
import { providerName } from "../protocol/caps.ts";
import { isObj } from "../protocol/envelope.ts";
import { framesOf, shown, type Attestation, type Behaviours } from "./host-contract.ts";

/** Why an attestation did not verify, in words. */
function unverifiedWords(v: SignatureVerdict): string {
  switch (v.kind) {
    case "unknown-algorithm":
      return `algorithm ${shown(v.algorithm)}, which it does not recognise`;
    case "unknown-key":
      return `key_id ${shown(v.key_id)}, which no published key answers`;
    case "bad-signature":
      return "its signature does not verify under the published key";
    case "not-signed":
      return "it carries no signature";
    case "commitment-mismatch":
      return "its signed_commitment is not this frame's";
    case "valid":
      return "valid";
    default:
      return `${v.kind.replace(/-/g, " ")}: ${shown(v.why)}`;
  }
}

export const attest: Behaviours<"attestations" | "admit" | "onFrames"> = {
  attestations(ack, env) {
    const frames = framesOf(env);
    const out: Attestation[] = frames.map(() => ({ kind: "unattested" }));
    const audit = auditFrames(providerName(ack) ?? "", isObj(env.result) ? env.result : {}, keysOf(ack));
    for (const e of audit.entries) {
      if (e.frameIndex === undefined || e.signature === undefined) continue;
      const changed = e.commitment !== undefined && e.commitment.expected !== e.commitment.signed;
      out[e.frameIndex] =
        e.signature.kind === "valid" && !changed
          ? { kind: "attested" }
          : { kind: "unverifiable", why: changed ? "its signed_commitment is not this frame's: it changed after signing" : unverifiedWords(e.signature) };
    }
    return out;
  },

  admit: () => true,

  onFrames(env, ack) {
    const frames = framesOf(env);
    const attestations = this.attestations(ack, env);
    const kept = frames.filter((f, i) => {
      const a = attestations[i] ?? { kind: "unattested" };
      if (a.kind === "unverifiable") this.log(`reference-host: frame ${shown(f.id)}: its attestation cannot be verified (${a.why}): taken as unattested (F9)`);
      return this.admit(f, a);
    });
    for (const f of kept) this.print(`frame ${shown(f.id)} kind ${shown(f.kind)} ${shown(f.token_cost)} tokens`);
    return kept;
  },
};
