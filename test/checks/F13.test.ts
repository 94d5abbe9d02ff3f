import F13 from "../../checks/F13.ts";
import { type InclusionProof } from "../../src/math/attest.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, DROPPED, entry, escape, FRAMES, has, KEYED_ACK, ROOT, signed, unsigned, type Signed } from "../helpers/attestation.ts";

/** frame_attestations[1] is frm_a, canonical leaf 0 of 3: a two-step path. */
const proof = (r: Signed, i: number): InclusionProof => entry(r, i).inclusion_proof!;
const proofOf = (i: number, id: string): string => `frame_attestations[${i}].inclusion_proof (frame "${id}")`;
const FAKE_SIBLING = digestOfText("not a sibling");

runCases(F13, [
  { name: "every proof folds to the signed root", build: answer(), status: "pass", says: [/every inclusion proof recomputes the signed root/] },
  { name: "no attestations at all", build: unsigned, status: "skip" },
  {
    name: "signatures, no proofs (they are optional)",
    build: answer((r) => r.frame_attestations!.forEach((e) => delete e.inclusion_proof)),
    status: "skip",
    says: [/no answer carries an inclusion proof \(they are optional\)/],
  },
  {
    name: "proofs from the untruncated tree",
    build: answer(() => {}, KEYED_ACK, signed(FRAMES, [...FRAMES, DROPPED])),
    status: "fail",
    codes: ["F13.wrong-leaf-count"],
    says: [has(`${proofOf(0, "frm_c")} declares leaf_count 4, but the result carries 3 frames | 3 | 4`)],
  },
  {
    name: "a path one step short",
    build: answer((r) => proof(r, 1).path.pop()),
    status: "fail",
    codes: ["F13.unfoldable"],
    says: [
      has(
        `${proofOf(1, "frm_a")} cannot be folded: the path has 1 steps, but a leaf at that index of a tree of that many leaves needs 2 | a path of the shape leaf_index and leaf_count fix | wrong-path-length`,
      ),
    ],
  },
  {
    name: "a sibling on the wrong side",
    build: answer((r) => (proof(r, 1).path[0]!.sibling_is_left = true)),
    status: "fail",
    says: [has(`${proofOf(1, "frm_a")} cannot be folded: path step 0 puts the sibling on the left, but at that index it is on the right`)],
  },
  {
    name: "a leaf index outside the tree",
    build: answer((r) => (proof(r, 2).leaf_index = 5)),
    status: "fail",
    says: [has(`${proofOf(2, "frm_b")} cannot be folded: leaf_index 5 is not below leaf_count 3`)],
  },
  {
    name: "a path step that is not an object",
    build: answer((r) => ((proof(r, 0).path as unknown[])[0] = null)),
    status: "fail",
    says: [/frame_attestations\[0\]\.inclusion_proof \(frame "frm_c"\) cannot be folded: [^{|]*null/],
    never: [/\{"kind"/],
  },
  {
    name: "a tampered sibling",
    build: answer((r) => (proof(r, 1).path[0]!.sibling = FAKE_SIBLING)),
    status: "fail",
    codes: ["F13.wrong-root"],
    says: [new RegExp(`${escape(proofOf(1, "frm_a"))} recomputes sha256:[0-9a-f]{64}, not the result_attestation root \\| ${escape(ROOT)} \\| sha256:`)],
  },
  {
    name: "proofs and no root to prove against",
    build: answer((r) => delete r.result_attestation),
    status: "fail",
    says: [has(`${proofOf(0, "frm_c")} recomputes ${ROOT}, not the result_attestation root | a result_attestation to prove against | ${ROOT}`)],
  },
]);
