import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, audits, NOT_ATTESTED } from "./kit/attestations.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import type { RootDiagnosis } from "../src/attest/audit.ts";

const DIAGNOSIS: Record<RootDiagnosis, string> = {
  "arrival-order": "it is the root over the same frames in arrival order, not canonical order",
  "duplicate-last-leaf": "it is the root with the duplicate-last-leaf shortcut, not RFC 6962's split",
  "other-set": "it matches no ordering or tree shape of the frames carried: a root over a different set (a truncated-away candidate set?)",
};

/** diagnosis: what the root signed equals instead; null where there are no frames to order. */
type WrongRoot = { step: string; signed: Param; expected: string; diagnosis: RootDiagnosis | null };

const F = findings({
  "root-of-frames": { ok: true, says: () => "every result_attestation signs the Merkle root of exactly the frames returned, in canonical order" },
  "wrong-root": {
    apart: ["diagnosis"],
    says: (p: WrongRoot) =>
      `step ${p.step}: result_attestation signs ${show(p.signed)}, not the root of the frames carried (${p.expected})${p.diagnosis === null ? "" : `: ${DIAGNOSIS[p.diagnosis]}`}`,
    expected: (p: WrongRoot) => p.expected,
    actual: (p: WrongRoot) => show(p.signed),
  },
});

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
  findings: F.table,
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
        ? F.say("root-of-frames", {}, { lines: [line] })
        : F.say("wrong-root", { step, signed: r.signed as Param, expected: r.expected, diagnosis: r.diagnosis ?? null }, { lines: [line] });
    });
  },
});
