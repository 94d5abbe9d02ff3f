import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks F6: "A ProvenanceAttestation MUST be detached — it MUST NOT appear inside the frame it signs". */
export default defineMode({
  name: "F6-attestation-in-frame",
  defect: "also copies each frame's attestation into the frame itself",
  expectFail: ["F6"],
  finding: { code: "F6.inside", params: { members: ["attestation", "signed_commitment"] } },
  apply: (honest) => ({
    onQuery(env) {
      return honest.onQuery.call(this, env).map((r) => {
        const result = r.result as Obj | undefined;
        if (r.type !== "frames" || !result || !Array.isArray(result.frame_attestations)) return r;
        const entries = result.frame_attestations as Obj[];
        const frames = (result.frames as Obj[]).map((f, i) => ({ ...f, attestation: entries[i]!.attestation }));
        return { ...r, result: { ...result, frames } };
      });
    },
  }),
});
