import { identityOf } from "../src/attest/commit.ts";
import { toDigest } from "../src/math/attest.ts";
import { declaredName } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks F11: an entry "MUST name a frame the same result carries". */
export default defineMode({
  name: "F11-absent-frame",
  defect: "also attests the candidates its budget truncated away",
  expectFail: ["F11"],
  finding: "F11.absent-frame",
  apply: (honest) => ({
    attestations(frames, candidates) {
      const signed = honest.attestations.call(this, frames, candidates);
      const name = declaredName(this);
      const dropped = candidates
        .filter((c) => !frames.includes(c))
        .map((f) => {
          const c = this.commit(f);
          return {
            frame: identityOf(name, f),
            attestation: { ...((signed.result_attestation as Obj) ?? {}), signed_commitment: toDigest(c), signature: this.sign(c) },
          };
        });
      return { ...signed, frame_attestations: [...(signed.frame_attestations as Obj[]), ...dropped] };
    },
  }),
});
