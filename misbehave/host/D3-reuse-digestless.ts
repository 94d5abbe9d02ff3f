/**
 * Defect: in its second turn it reuses the stored body of a frame served without a content_digest, unchecked.
 * Breaks D3: "A frame whose content_digest is absent MUST NOT be reused unchecked across queries — a host re-queries
 * or re-verifies it rather than trusting a stored copy."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "D3-reuse-digestless",
  defect: "keeps the stored body of a frame with no content_digest across queries, beside what it fetches again",
  expectFail: ["host:D3"],
  finding:
    /the second block \(\{context\} line \d+\): it holds the stored copy of "fixture:undigested" \(cgpmark-re-06, no content_digest\), served at line \d+ without a content_digest, not served again; it was composed after a later query's answer/,
  apply: (honest) => ({
    reuses(frame, verdict) {
      return typeof frame.content_digest !== "string" || honest.reuses.call(this, frame, verdict);
    },
  }),
});
