import { defineMode } from "./mode.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/**
 * Breaks V2 (context-reuse §4: "stale when it differs on a frame it still
 * serves"): answers unknown where a presented digest differs from the one it
 * serves, so a host re-fetches on a guess instead of knowing the frame
 * changed. Unchanged digests are still valid, strangers still gone.
 */
export default defineMode({
  name: "V2-unknown-when-changed",
  defect: "answers unknown, not stale, for a changed digest of a frame it still serves",
  expectFail: ["V2"],
  finding: { code: "V2.wrong-status", params: { step: VERIFY.steps.verifyMutated, statuses: ['"unknown"'] } },
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return v.status === "stale" && identity.content_digest !== undefined ? { frame: v.frame, status: "unknown" } : v;
    },
  }),
});
