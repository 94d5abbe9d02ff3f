import F6 from "../../checks/F6.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, entry, has, unsigned, type Obj } from "../helpers/attestation.ts";

runCases(F6, [
  { name: "attestations beside the frames", build: answer(), status: "pass", says: [/no frame carries an attestation member/] },
  {
    name: "no attestations at all",
    build: unsigned,
    status: "skip",
    says: [/the provider attached no attestation to any answer \(attestations are optional: §6\.5\)/],
  },
  {
    name: "an attestation inside the frame it signs",
    build: answer((r) => (r.frames[0]!.attestation = entry(r, 0).attestation)),
    status: "fail",
    says: [
      has(
        "result.frames carries an attestation inside a frame: frames[0]/attestation, frames[0]/attestation/signed_commitment | attestations only in result.frame_attestations / result.result_attestation | attestation, signed_commitment",
      ),
    ],
  },
  {
    name: "a signed_commitment inside a provenance link (a hash preimage)",
    build: answer((r) => ((r.frames[1]!.provenance as Obj[])[0]!.signed_commitment = entry(r, 1).attestation!.signed_commitment)),
    status: "fail",
    says: [has("inside a frame: frames[1]/provenance/0/signed_commitment")],
  },
  {
    name: "attestations only inside a frame, none beside",
    build: answer((r) => {
      r.frames[2]!.frame_attestations = r.frame_attestations;
      delete r.frame_attestations;
      delete r.result_attestation;
    }),
    status: "fail",
    says: [
      has(
        "inside a frame: frames[2]/frame_attestations, frames[2]/frame_attestations/0/attestation, frames[2]/frame_attestations/0/attestation/signed_commitment",
      ),
    ],
  },
]);
