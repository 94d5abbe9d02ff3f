/**
 * Defect: speaks plain http:// to any host, loopback or not.
 * Breaks C7: "A host's HTTP transport MUST use TLS for every non-loopback provider, and MUST refuse to transmit a
 * query payload to a non-loopback provider over an unencrypted connection."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C7-plaintext-remote",
  defect:
    "takes a plain http:// URL to a non-loopback provider as it takes one to loopback, and queries it once consent is given (it still treats the provider as egress)",
  expectFail: ["host:C7"],
  finding: {
    "host:C7": "host:C7.plaintext-query",
  },
  only: "http",
  apply: (honest) => ({
    transportRefusal(url) {
      return new URL(url).protocol === "http:" ? undefined : honest.transportRefusal.call(this, url);
    },
  }),
});
