/**
 * Defect: prints a debug line on stderr with the Authorization header it sends.
 * Breaks C8: "A host MUST NOT log, or place in an error surfaced off-machine, any bearer token, credential, or
 * authorization header used to reach a provider."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C8-log-token",
  defect: "over HTTP, prints a debug line with the Authorization header value (the bearer token) on stderr",
  expectFail: ["host:C8"],
  finding: { code: "host:C8.token-printed", params: { stream: "stderr" } },
  only: "http",
  apply: (honest) => ({
    authorization(token) {
      const value = honest.authorization.call(this, token);
      this.log(`reference-host: debug: sending Authorization: ${value}`);
      return value;
    },
  }),
});
