import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";

type Wrong = { entry: number; frame: Param; provider: Param; signed: Param; expected: string };

const F = findings({
  "signs-commitment": { ok: true, says: () => "every frame attestation signs the recomputed frame commitment" },
  "wrong-commitment": {
    says: (p: Wrong) =>
      `frame_attestations[${p.entry}] for frame ${show(p.frame)} signs ${show(p.signed)}, but §6.5.2 over that frame (provider ${show(p.provider)}, its content_digest and provenance chain) gives ${p.expected}`,
    expected: (p: Wrong) => p.expected,
    actual: (p: Wrong) => show(p.signed),
  },
});

/**
 * @anchor F7
 * Stimulus: every frame attestation in the answers of the shared session's
 * querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify): its signed_commitment against §6.5.2's frame_commitment,
 * recomputed here from the frame in hand (result roots are F12's).
 */
export default defineCheck({
  findings: F.table,
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
          ? F.say("signs-commitment", {}, { lines: [line] })
          : F.say(
              "wrong-commitment",
              {
                entry: e.index,
                frame: e.named.frame_id as Param,
                provider: audit.providerId as Param,
                signed: e.commitment.signed as Param,
                expected: e.commitment.expected,
              },
              { lines: [line] },
            );
      },
      "no frame attestation names a frame its result carries (F11's concern)",
    ),
});
