import { defineMode } from "./mode.ts";

/** Breaks H1: "a handshake_ack whose protocol_version is in the same major family as the host's." */
export default defineMode({
  name: "H1-wrong-family",
  defect: "acknowledges a contextgraph/1.0 handshake with protocol_version contextgraph/2.0",
  expectFail: ["H1"],
  finding: { code: "H1.wrong-family", params: { version: "contextgraph/2.0", family: "contextgraph/2" } },
  apply: (honest) => ({
    ack() {
      return { ...honest.ack.call(this), protocol_version: "contextgraph/2.0" };
    },
  }),
});
