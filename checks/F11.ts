import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { show } from "./kit/show.ts";

/**
 * @anchor F11
 * Stimulus: every frame_attestations entry in the answers of the shared
 * session's querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify). (An attestation inside
 * a frame is F6's.)
 */
export default defineCheck({
  id: "F11",
  title: "Each attestation entry names in full a frame its result carries",
  level: "MUST",
  requirement:
    "An attestation MUST travel beside the frames it covers, in the result's frame_attestations / result_attestation members, and MUST NOT appear as a member of a ContextFrame (F6 on the wire). A frame_attestations entry MUST name the full (provider id, frame id, content_digest) identity it attests rather than implying it by array position, and MUST name a frame the same result carries.",
  probes: ATTESTATION_PROBES,
  score: ({ probe }) =>
    perEntry(
      probe,
      (e, _audit, line) => {
        const who = `frame_attestations[${e.index}] (${show(e.named, 120)})`;
        if (e.incomplete.length > 0) {
          return {
            ok: false,
            message: `${who} does not name the full identity: ${e.incomplete.join(", ")} missing`,
            expected: "provider_id, frame_id and content_digest",
            actual: show(e.named, 120),
            lines: [line],
          };
        }
        if (e.frameIndex === undefined) {
          return {
            ok: false,
            message: `${who} names a frame this result does not carry`,
            expected: "the identity of a frame in result.frames",
            actual: show(e.named, 120),
            lines: [line],
          };
        }
        return { ok: true, message: "every frame_attestations entry names in full a frame its result carries", lines: [line] };
      },
      "no answer carries frame_attestations entries",
    ),
});
