import { sha256 } from "../src/math/sha256.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks F12 for the one size the others never reach: an empty result is
 * signed over SHA256 of no bytes, not MTH({}) = SHA256("contextgraph/attest/1/merkle-empty").
 * Only a signed answer with no frame (a zero budget) shows it.
 */
export default defineMode({
  name: "F12-empty-root",
  defect: "signs an empty result's root as SHA256 of nothing instead of the §6.5.3 empty-tree hash",
  expectFail: ["F12"],
  // A root over no frames has no order to diagnose; the digest signed is SHA256 of no bytes.
  finding: {
    code: "F12.wrong-root",
    params: { signed: "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", diagnosis: null },
  },
  apply: (honest) => ({
    resultRoot(frames, candidates) {
      return frames.length === 0 ? sha256(new Uint8Array()) : honest.resultRoot.call(this, frames, candidates);
    },
  }),
});
