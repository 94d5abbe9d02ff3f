import F6 from "../../checks/F6.ts";
import { runCases } from "../helpers/cases.ts";
import { answer, entry, FRAMES, has, quiet, unsigned, type Obj } from "../helpers/attestation.ts";
import { served } from "../helpers/transcript.ts";

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
    codes: ["F6.inside"],
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
  {
    name: "an attestation inside a vendor extension member",
    build: answer((r) => (r.frames[0]!["acme:meta"] = { signed: entry(r, 0).attestation })),
    status: "fail",
    says: [has("inside a frame: frames[0]/acme:meta/signed")],
  },
]);

// U1: a member no schema defines for the object holding it is an extension, ignored; only an attestation by its shape is F6's.
runCases(F6, [
  {
    name: "a vendor extension holding a member called attestation",
    build: answer((r) => (r.frames[0]!["acme:meta"] = { attestation: "reviewed by acme", inclusion_proof: "n/a" })),
    status: "pass",
    says: [/no frame carries an attestation member/],
  },
  {
    name: "an unknown member of a provenance link holding members named attestation and attestations",
    build: answer((r) => ((r.frames[1]!.provenance as Obj[])[0]!["acme:review"] = { attestation: "ok", attestations: ["ok"] })),
    status: "pass",
  },
  {
    name: "an unsigned answer whose frame has a vendor attestation member: nothing was attested",
    build: () => quiet(served(FRAMES.map((f, i) => (i === 0 ? { ...f, "acme:meta": { attestation: "reviewed" } } : f)))),
    status: "skip",
    says: [/the provider attached no attestation to any answer/],
  },
]);
