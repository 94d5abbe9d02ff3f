import { DOCS } from "../src/reference/corpus.ts";
import { defineMode } from "./mode.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/**
 * Breaks V2: looks frame ids up case-insensitively, so an identity whose id
 * differs from a served one only in case is called valid. Ids that match
 * exactly, and ids never served, are answered honestly.
 */
export default defineMode({
  name: "V2-case-insensitive-ids",
  defect: "matches verify's frame ids case-insensitively, calling a case-flipped id valid",
  expectFail: ["V2"],
  finding: { code: "V2.valid-for-changed", params: { step: VERIFY.steps.verifyCase } },
  apply: (honest) => ({
    verdict(identity) {
      const id = String(identity.frame_id);
      const doc = DOCS.find((d) => d.id !== id && d.id.toLowerCase() === id.toLowerCase());
      if (!doc) return honest.verdict.call(this, identity);
      const real = honest.verdict.call(this, { ...identity, frame_id: doc.id });
      return { ...real, frame: { ...(real.frame as object), frame_id: identity.frame_id } };
    },
  }),
});
