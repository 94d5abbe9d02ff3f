import { counted } from "../src/verdict/words.ts";
import { defineCheck } from "./kit/check.ts";
import { ATTESTATION_PROBES, perEntry } from "./kit/attestations.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";

/** A proof as a finding names it: its entry's index in frame_attestations, and the frame it proves. */
type Proof = { entry: number; frame: Param };
/** What stopped the fold, in words (the failure as src/math/attest.ts records it). */
function foldWords(f: Param): string {
  const x = (typeof f === "object" && f !== null && !Array.isArray(f) ? f : {}) as Record<string, Param>;
  switch (x.kind) {
    case "bad-leaf-count":
      return `leaf_count ${show(x.leaf_count)} is not a whole number of at least 1`;
    case "bad-leaf-index":
      return `leaf_index ${show(x.leaf_index)} is not a whole number of at least 0`;
    case "index-out-of-range":
      return `leaf_index ${x.leaf_index} is not below leaf_count ${x.leaf_count}`;
    case "wrong-path-length":
      return `the path has ${x.actual} steps, but a leaf at that index of a tree of that many leaves needs ${x.expected}`;
    case "wrong-side":
      return `path step ${x.step} puts the sibling on the ${x.expected_sibling_is_left ? "right" : "left"}, but at that index it is on the ${x.expected_sibling_is_left ? "left" : "right"}`;
    case "malformed-sibling":
      return `path step ${x.step}: ${x.why}`;
    case "malformed":
      return String(x.why);
    default:
      return show(f);
  }
}

const who = (p: Proof): string => `frame_attestations[${p.entry}].inclusion_proof (frame ${show(p.frame)})`;
type LeafCount = Proof & { declared: Param; frames: number };
/** failure: what the fold stopped at, as src/math/attest.ts names it (its kind sets the defect apart). */
type Unfoldable = Proof & { kind: string; failure: Param };
/** against: the root signed, or null where the result has no result_attestation. */
type WrongRoot = Proof & { root: string; against: string | null };

const F = findings({
  "recomputes-root": { ok: true, says: () => "every inclusion proof recomputes the signed root" },
  "wrong-leaf-count": {
    says: (p: LeafCount) => `${who(p)} declares leaf_count ${show(p.declared)}, but the result carries ${counted(p.frames, "frame")}`,
    expected: (p: LeafCount) => String(p.frames),
    actual: (p: LeafCount) => show(p.declared),
  },
  unfoldable: {
    apart: ["kind"],
    says: (p: Unfoldable) => `${who(p)} cannot be folded: ${foldWords(p.failure)}`,
    expected: () => "a path of the shape leaf_index and leaf_count fix",
    actual: (p: Unfoldable) => p.kind,
  },
  "wrong-root": {
    says: (p: WrongRoot) => `${who(p)} recomputes ${p.root}, not the result_attestation root`,
    expected: (p: WrongRoot) => p.against ?? "a result_attestation to prove against",
    actual: (p: WrongRoot) => p.root,
  },
});

/**
 * @anchor F13
 * Stimulus: every inclusion_proof in the answers of the shared session's
 * querying probes (sample-query, budget-squeeze, kinds-query, as-of,
 * graph-anchors, representations, embedding, verify), folded up from its
 * frame's commitment.
 */
export default defineCheck({
  findings: F.table,
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
        const proof = { entry: e.index, frame: e.named.frame_id as Param };
        const lines = [line];
        if (e.leafCount && e.leafCount.declared !== e.leafCount.frames)
          return F.say("wrong-leaf-count", { ...proof, declared: e.leafCount.declared as Param, frames: e.leafCount.frames }, { lines });
        if (!e.proof.ok) return F.say("unfoldable", { ...proof, kind: e.proof.failure.kind, failure: e.proof.failure as Param }, { lines });
        return e.proof.matches
          ? F.say("recomputes-root", {}, { lines })
          : F.say("wrong-root", { ...proof, root: e.proof.root, against: audit.result ? String(audit.result.signed) : null }, { lines });
      },
      "no answer carries an inclusion proof (they are optional)",
    ),
});
