import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";

/** An entry as a finding names it: its index in frame_attestations, and the identity it names, as sent. */
type Entry = { entry: number; named: Param };
const who = (p: Entry): string => `frame_attestations[${p.entry}] (${show(p.named, 120)})`;

const F = findings({
  "names-frame": { ok: true, says: () => "every frame_attestations entry names in full a frame its result carries" },
  "incomplete-identity": {
    apart: ["missing"],
    says: (p: Entry & { missing: string[] }) => `${who(p)} does not name the full identity: ${p.missing.join(", ")} missing`,
    expected: () => "provider_id, frame_id and content_digest",
    actual: (p: Entry) => show(p.named, 120),
  },
  "absent-frame": {
    says: (p: Entry) => `${who(p)} names a frame this result does not carry`,
    expected: () => "the identity of a frame in result.frames",
    actual: (p: Entry) => show(p.named, 120),
  },
});

/**
 * @anchor F11
 * Stimulus: every frame_attestations entry in the answers of the shared
 * session's querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify). (An attestation inside
 * a frame is F6's.)
 */
export default defineCheck({
  findings: F.table,
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
        const entry = { entry: e.index, named: e.named as Param };
        if (e.incomplete.length > 0) return F.say("incomplete-identity", { ...entry, missing: e.incomplete }, { lines: [line] });
        if (e.frameIndex === undefined) return F.say("absent-frame", entry, { lines: [line] });
        return F.say("names-frame", {}, { lines: [line] });
      },
      "no answer carries frame_attestations entries",
    ),
});
