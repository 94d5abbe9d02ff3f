import { defineMode } from "./mode.ts";

/**
 * Breaks V2 (context-reuse §4: "valid for a frame whose presented digest
 * matches what it currently serves"): answers stale for the digest it serves,
 * naming that same digest as the replacement, so a host evicts every frame it
 * holds. Its answer to a changed digest is honest (stale, with the digest it
 * serves), and that answer shows the digest it called stale is its current one.
 */
export default defineMode({
  name: "V2-stale-when-served",
  defect: "answers stale, not valid, for the digest it serves, giving that same digest as the replacement",
  expectFail: ["V2"],
  finding: { code: "V2.stale-unchanged" },
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return v.status === "valid" && identity.content_digest !== undefined
        ? { frame: v.frame, status: "stale", replacement_digest: identity.content_digest }
        : v;
    },
  }),
});
