import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/** Breaks F11: an entry "MUST name the full (provider id, frame id, content_digest) identity it attests". */
export default defineMode({
  name: "F11-implied-identity",
  defect: "names each attested frame by frame_id alone",
  expectFail: ["F11"],
  finding: { code: "F11.incomplete-identity", params: { missing: ["provider_id", "content_digest"] } },
  apply: (honest) => ({
    attestations(frames, candidates) {
      const signed = honest.attestations.call(this, frames, candidates);
      const entries = (signed.frame_attestations as Obj[]).map((e) => ({ ...e, frame: { frame_id: (e.frame as Obj).frame_id } }));
      return { ...signed, frame_attestations: entries };
    },
  }),
});
