import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { show } from "./kit/show.ts";

/**
 * @anchor F7
 * Stimulus: every frame attestation in the answers of the shared session's
 * querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify): its signed_commitment against §6.5.2's frame_commitment,
 * recomputed here from the frame in hand (result roots are F12's).
 */
export default defineCheck({
  id: "F7",
  title: "Each frame attestation signs the §6.5.2 frame commitment",
  level: "MUST",
  requirement:
    "An attestation's signed_commitment MUST be the sha256:<64 lowercase hex> rendering of a commitment computed exactly as §6.5.2 or §6.5.3 specifies.",
  probes: ATTESTATION_PROBES,
  score: ({ probe }) =>
    perEntry(
      probe,
      (e, audit, line) => {
        if (!e.commitment) return undefined;
        return e.commitment.signed === e.commitment.expected
          ? { ok: true, message: "every frame attestation signs the recomputed frame commitment", lines: [line] }
          : {
              ok: false,
              message: `frame_attestations[${e.index}] for frame ${show(e.named.frame_id)} signs ${show(e.commitment.signed)}, but §6.5.2 over that frame (provider ${show(audit.providerId)}, its content_digest and provenance chain) gives ${e.commitment.expected}`,
              expected: e.commitment.expected,
              actual: show(e.commitment.signed),
              lines: [line],
            };
      },
      "no frame attestation names a frame its result carries (F11's concern)",
    ),
});
