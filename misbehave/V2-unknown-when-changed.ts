import { defineMode } from "./mode.ts";

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
  finding:
    /whose digest differs by one hex digit from what it served, for frames it still serves \(it answered valid for them unchanged, line \d+\), answered "unknown"/,
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return v.status === "stale" && identity.content_digest !== undefined ? { frame: v.frame, status: "unknown" } : v;
    },
  }),
});
