/**
 * Defect: takes a handshake_ack of any protocol family and goes on to query.
 * Breaks H3: "A version-family mismatch MUST be reported as a named error, never left to hang." (§3.1: "Two versions
 * interoperate if and only if they share a major family.")
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "H3-ignore-family",
  defect: "accepts a handshake_ack of any protocol family and queries the provider",
  expectFail: ["host:H3"],
  finding: { code: "host:H3.went-on", params: { first: { type: "query" } } },
  apply: () => ({
    compatible: () => true,
  }),
});
