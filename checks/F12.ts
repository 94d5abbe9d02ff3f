import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "./kit/attestations.ts";
import { show } from "./kit/show.ts";

/**
 * @anchor F12
 * Stimulus: every result_attestation in the answers of the shared session's
 * querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify); budget-squeeze's tight
 * budgets truncate the candidate set. Leaves are
 * each frame's own signed commitment where it gave one (the leaf values are
 * F7's); this check judges the set, the canonical order and the tree.
 */
export default defineCheck({
  id: "F12",
  title: "The result root covers exactly the frames returned, in canonical order",
  level: "MUST",
  requirement:
    "A result_attestation's signed_commitment MUST be the §6.5.3 Merkle root over the commitments of exactly the frames carried in result.frames, in canonical order — never over a larger candidate set the provider truncated away.",
  probes: ATTESTATION_PROBES,
  score({ probe }) {
    const answers = audits(ATTESTATION_PROBES.map(probe)).filter((a) => a.audit.result);
    if (answers.length === 0) return { skip: `${NOT_ATTESTED}, or no result_attestation` };
    return answers.map(({ line, step, audit }) => {
      const r = audit.result!;
      return r.signed === r.expected
        ? { ok: true, message: "every result_attestation signs the Merkle root of exactly the frames returned, in canonical order", lines: [line] }
        : {
            ok: false,
            message: `step ${step}: result_attestation signs ${show(r.signed)}, not the root of the frames carried (${r.expected}): ${r.diagnosis}`,
            expected: r.expected,
            actual: show(r.signed),
            lines: [line],
          };
    });
  },
});
