import F7 from "../../checks/F7.ts";
import { commitmentOf, linksOf } from "../../src/attest/commit.ts";
import { chainHead, frameCommitment, toDigest } from "../../src/math/attest.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, attestation, commit, entry, FRAMES, has, PROVIDER, rootOnly, unsigned, type Obj } from "../helpers/attestation.ts";

/** F7's evidence for frame_attestations[i] signing `signed` where §6.5.2 gives `expected`. */
const misSigned = (i: number, id: string, signed: Uint8Array, expected: Uint8Array): RegExp =>
  has(
    `frame_attestations[${i}] for frame "${id}" signs "${toDigest(signed)}", but §6.5.2 over that frame (provider "${PROVIDER}", its content_digest and provenance chain) gives ${toDigest(expected)} | ${toDigest(expected)} | "${toDigest(signed)}"`,
  );

const EDITED = { ...FRAMES[1]!, provenance: [{ ...(FRAMES[1]!.provenance as Obj[])[0]!, method: "summarised" }] };

runCases(F7, [
  { name: "every frame commitment recomputes", build: answer(), status: "pass", says: [/every frame attestation signs the recomputed frame commitment/] },
  { name: "no attestations at all", build: unsigned, status: "skip", says: [/attached no attestation/] },
  {
    name: "a root and no frame attestations",
    build: rootOnly,
    status: "skip",
    says: [/no frame attestation names a frame its result carries \(F11's concern\)/],
  },
  {
    name: "provenance edited after signing",
    build: answer((r) => (r.frames[1] = structuredClone(EDITED))),
    status: "fail",
    codes: ["F7.wrong-commitment"],
    says: [misSigned(1, "frm_a", commit(FRAMES[1]!), commit(EDITED))],
  },
  {
    name: "the chain head signed alone (liftable to any frame citing the same source)",
    build: answer((r) => (entry(r, 0).attestation = attestation(chainHead(linksOf(FRAMES[0]!))))),
    status: "fail",
    says: [misSigned(0, "frm_c", chainHead(linksOf(FRAMES[0]!)), commit(FRAMES[0]!))],
  },
  {
    name: "a commitment under another provider id (a host-local id)",
    build: answer((r) => (entry(r, 2).attestation = attestation(commitmentOf("local-7", FRAMES[2]!)))),
    status: "fail",
    says: [misSigned(2, "frm_b", commitmentOf("local-7", FRAMES[2]!), commit(FRAMES[2]!))],
  },
  {
    name: "a commitment that encodes the content_digest as None",
    build: answer((r) => (entry(r, 0).attestation = attestation(frameCommitment(PROVIDER, "frm_c", undefined, chainHead(linksOf(FRAMES[0]!)))))),
    status: "fail",
    says: [misSigned(0, "frm_c", frameCommitment(PROVIDER, "frm_c", undefined, chainHead(linksOf(FRAMES[0]!))), commit(FRAMES[0]!))],
  },
]);
