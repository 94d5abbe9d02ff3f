/**
 * Defect: gates on the boolean data_flow.egress alone, never reading egress_scopes.
 * Breaks C6: "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine
 * egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C6-boolean-gate-only",
  defect:
    "gates on data_flow.egress only: a provider declaring off-machine egress_scopes beside egress: false is queried, and so is one declaring them beside egress: true once a boolean consent is given",
  expectFail: ["host:C6"],
  finding: { code: "host:C6.query-unreceipted", params: { scenario: "egress-scopes", egress: false } },
  apply: () => ({
    scopeRefusal: () => undefined,
  }),
});
