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
  finding: { code: "host:D3.stored-copy", params: { markers: ["cgpmark-re-06"] } },
  apply: (honest) => ({
    reuses(frame, verdict) {
      return typeof frame.content_digest !== "string" || honest.reuses.call(this, frame, verdict);
    },
  }),
});
