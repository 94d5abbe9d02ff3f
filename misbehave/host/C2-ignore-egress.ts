/**
 * Defect: takes no notice of data_flow.egress (it still refuses off-machine egress scopes).
 * Breaks C2: "A host MUST NOT transmit a query payload to an egress provider before consent is recorded."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C2-ignore-egress",
  defect: "queries a provider declaring data_flow.egress: true with no consent recorded (it still refuses unreceipted off-machine scopes)",
  expectFail: ["host:C2"],
  finding: "host:C2.query-before-consent",
  apply: () => ({
    egressRefusal: () => undefined,
  }),
});
