import { defineMode } from "./mode.ts";

/**
 * Breaks the version rule (§3.1: version-string = "contextgraph/" major "." minor [ "-draft" ]), a normative
 * grammar of §1: a patch number makes the value no version of the protocol, though its family would match.
 */
export default defineMode({
  name: "H1-patch-version",
  defect: "acknowledges a contextgraph/1.0 handshake with protocol_version contextgraph/1.0.3",
  expectFail: ["H1"],
  finding: { code: "H1.bad-version", params: { version: "contextgraph/1.0.3" } },
  apply: (honest) => ({
    ack() {
      return { ...honest.ack.call(this), protocol_version: "contextgraph/1.0.3" };
    },
  }),
});
