import { counted } from "../src/verdict/words.ts";
import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { show } from "./kit/show.ts";

/**
 * @anchor F13
 * Stimulus: every inclusion_proof in the answers of the shared session's
 * querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify), folded up from its
 * frame's commitment.
 */
export default defineCheck({
  id: "F13",
  title: "Each inclusion proof recomputes the signed root",
  level: "MUST",
  requirement:
    "An inclusion_proof is OPTIONAL, and when present MUST recompute the result_attestation root. A host that retains a strict subset of a signed result set MUST derive and retain the proofs for the frames it keeps before dropping the rest; once the siblings are gone the root can never be recomputed.",
  probes: ATTESTATION_PROBES,
  score: ({ probe }) =>
    perEntry(
      probe,
      (e, audit, line) => {
        if (!e.proof) return undefined;
        const who = `frame_attestations[${e.index}].inclusion_proof (frame ${show(e.named.frame_id)})`;
        if (e.leafCount && e.leafCount.declared !== e.leafCount.frames) {
          return {
            ok: false,
            message: `${who} declares leaf_count ${show(e.leafCount.declared)}, but the result carries ${counted(e.leafCount.frames, "frame")}`,
            expected: String(e.leafCount.frames),
            actual: show(e.leafCount.declared),
            lines: [line],
          };
        }
        if (!e.proof.ok) {
          return {
            ok: false,
            message: `${who} cannot be folded: ${show(e.proof.failure)}`,
            expected: "a path of the shape leaf_index and leaf_count fix",
            actual: e.proof.failure.kind,
            lines: [line],
          };
        }
        return e.proof.matches
          ? { ok: true, message: "every inclusion proof recomputes the signed root", lines: [line] }
          : {
              ok: false,
              message: `${who} recomputes ${e.proof.root}, not the result_attestation root`,
              expected: audit.result ? String(audit.result.signed) : "a result_attestation to prove against",
              actual: e.proof.root,
              lines: [line],
            };
      },
      "no answer carries an inclusion proof (they are optional)",
    ),
});
