import { defineCheck, type Evidence } from "../src/check.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "../src/transcript/attestations.ts";
import { show } from "../src/transcript/view.ts";

/**
 * @anchor F11
 * Stimulus: every frame_attestations entry in answers to probes sample-query
 * and budget-squeeze. (An attestation inside a frame is F6's.)
 */
export default defineCheck({
  id: "F11",
  title: "Each attestation entry names in full a frame its result carries",
  level: "MUST",
  requirement:
    "An attestation MUST travel beside the frames it covers, in the result's frame_attestations / result_attestation members, and MUST NOT appear as a member of a ContextFrame (F6 on the wire). A frame_attestations entry MUST name the full (provider id, frame id, content_digest) identity it attests rather than implying it by array position, and MUST name a frame the same result carries.",
  probes: ATTESTATION_PROBES,
  score({ probe }) {
    const answers = audits(ATTESTATION_PROBES.map(probe)).filter((a) => a.audit.attested);
    if (answers.length === 0) return { skip: NOT_ATTESTED };
    const out: Evidence[] = [];
    for (const { line, audit } of answers) {
      for (const e of audit.entries) {
        const who = `frame_attestations[${e.index}] (${show(e.named, 120)})`;
        if (e.incomplete.length > 0) {
          out.push({ ok: false, message: `${who} does not name the full identity: ${e.incomplete.join(", ")} missing`, expected: "provider_id, frame_id and content_digest", actual: show(e.named, 120), lines: [line] });
        } else if (e.frameIndex === undefined) {
          out.push({ ok: false, message: `${who} names a frame this result does not carry`, expected: "the identity of a frame in result.frames", actual: show(e.named, 120), lines: [line] });
        } else {
          out.push({ ok: true, message: "every frame_attestations entry names in full a frame its result carries", lines: [line] });
        }
      }
    }
    return out.length > 0 ? out : { skip: "no answer carries frame_attestations entries" };
  },
});
