import { defineMode } from "./mode.ts";

/**
 * Breaks V4's definition of replacement_digest ("the provider's current
 * digest for the frame"): a stale verdict echoes back the digest the host
 * presented. V4 states it with no keyword, so it is a warning.
 */
export default defineMode({
  name: "V4-echo-presented-digest",
  defect: "puts the digest the host presented in a stale verdict's replacement_digest, not the current one",
  expectFail: [],
  expectWarn: ["V4"],
  finding: { code: "V4.not-current", params: { presented: true } },
  apply: (honest) => ({
    verdict(identity) {
      const v = honest.verdict.call(this, identity);
      return v.status === "stale" && identity.content_digest !== undefined ? { ...v, replacement_digest: identity.content_digest } : v;
    },
  }),
});
