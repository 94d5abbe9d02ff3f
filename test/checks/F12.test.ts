import F12 from "../../checks/F12.ts";
import { merkleLeaf, merkleNode, merkleRoot, toDigest } from "../../src/math/attest.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, attestation, canonical, commit, DROPPED, FRAMES, has, KEYED_ACK, ROOT, signed } from "../helpers/attestation.ts";

/** RFC 6962 done wrong: an odd level duplicates its last node. */
function duplicateLastLeafRoot(leaves: Uint8Array[]): Uint8Array {
  let level = leaves.map(merkleLeaf);
  while (level.length > 1) {
    if (level.length % 2 === 1) level = [...level, level[level.length - 1]!];
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

const CANONICAL = canonical(FRAMES).map(commit);
const wrongRoot = (root: Uint8Array, diagnosis: string): RegExp =>
  has(`step sample: result_attestation signs "${toDigest(root)}", not the root of the frames carried (${ROOT}): ${diagnosis} | ${ROOT} | "${toDigest(root)}"`);

runCases(F12, [
  {
    name: "the root of exactly the frames returned, canonical order",
    build: answer(),
    status: "pass",
    says: [/every result_attestation signs the Merkle root of exactly the frames returned, in canonical order/],
  },
  {
    name: "the cheapest honest shape: one root, proofs, no per-frame signature",
    build: answer((r) => r.frame_attestations!.forEach((e) => delete e.attestation)),
    status: "pass",
  },
  { name: "an empty answer signs the empty-tree root", build: answer(() => {}, KEYED_ACK, signed([])), status: "pass" },
  {
    name: "frame attestations but no root",
    build: answer((r) => delete r.result_attestation),
    status: "skip",
    says: [/attached no attestation to any answer \(attestations are optional: §6\.5\), or no result_attestation/],
  },
  {
    name: "the root over arrival order",
    build: answer((r) => (r.result_attestation = attestation(merkleRoot(FRAMES.map(commit))))),
    status: "fail",
    codes: ["F12.wrong-root"],
    says: [wrongRoot(merkleRoot(FRAMES.map(commit)), "it is the root over the same frames in arrival order, not canonical order")],
  },
  {
    name: "the root with the duplicate-last-leaf shortcut",
    build: answer((r) => (r.result_attestation = attestation(duplicateLastLeafRoot(CANONICAL)))),
    status: "fail",
    says: [wrongRoot(duplicateLastLeafRoot(CANONICAL), "it is the root with the duplicate-last-leaf shortcut, not RFC 6962's split")],
  },
  {
    name: "the root over the candidate set before truncation",
    build: answer(() => {}, KEYED_ACK, signed(FRAMES, [...FRAMES, DROPPED])),
    status: "fail",
    says: [
      wrongRoot(
        merkleRoot(canonical([...FRAMES, DROPPED]).map(commit)),
        "it matches no ordering or tree shape of the frames carried: a root over a different set (a truncated-away candidate set?)",
      ),
    ],
  },
]);
