import { defineCheck, type Evidence } from "./kit/check.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "./kit/attestations.ts";
import { findings } from "./kit/findings.ts";

/** Where each attestation sat (frame index, path inside it), and the distinct member names they sat in: a different member is a different defect. */
type Inside = { inside: { frame: number; path: string }[]; members: string[] };

const F = findings({
  detached: { ok: true, says: () => "no frame carries an attestation member" },
  inside: {
    apart: ["members"],
    says: (p: Inside) =>
      `result.frames carries an attestation inside a frame: ${p.inside
        .slice(0, 5)
        .map((x) => `frames[${x.frame}]${x.path}`)
        .join(", ")}`,
    expected: () => "attestations only in result.frame_attestations / result.result_attestation",
    actual: (p: Inside) => p.inside.map((x) => x.path.split("/").pop()).join(", "),
  },
});

/**
 * @anchor F6
 * Stimulus: every frames answer of the shared session's querying probes
 * (sample-query, budget-squeeze, kinds-query, as-of, graph-anchors,
 * representations, embedding, verify); each frame's raw JSON is scanned, at
 * any depth, for an attestation.
 * Reading: "A ProvenanceAttestation MUST NOT appear inside the frame it
 * signs" (MUST) binds an attestation, not a name. Where the schema defines the
 * enclosing object (the frame, its provenance links, relations, handles), a
 * member named as an attestation travels (attestation, frame_attestations,
 * signed_commitment, …) is the protocol's word and counts. Inside a member no
 * schema defines, a vendor extension such as acme:meta, a name is the
 * extension's own and U1 has a receiver ignore it: only an object carrying a
 * signed_commitment, an attestation by its shape, counts there.
 */
export default defineCheck({
  findings: F.table,
  id: "F6",
  title: "Attestations are detached, never inside the frame they sign",
  level: "MUST",
  requirement: "A ProvenanceAttestation MUST be detached — it MUST NOT appear inside the frame it signs, nor inside any hash preimage this spec defines.",
  probes: ATTESTATION_PROBES,
  score({ probe }) {
    const answers = audits(ATTESTATION_PROBES.map(probe)).filter((a) => a.audit.attested);
    if (answers.length === 0) return { skip: NOT_ATTESTED };
    return answers.map(
      ({ line, audit }): Evidence =>
        audit.inside.length === 0
          ? F.say("detached", {}, { lines: [line] })
          : F.say(
              "inside",
              {
                inside: audit.inside.map((x) => ({ frame: x.frameIndex, path: x.path })),
                members: [...new Set(audit.inside.map((x) => x.path.split("/").pop() ?? ""))].sort(),
              },
              { lines: [line] },
            ),
    );
  },
});
