/**
 * Defect: gates on the boolean data_flow.egress alone, never reading egress_scopes.
 * Breaks C6: "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine
 * egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C6-boolean-gate-only",
  defect: "gates on data_flow.egress only: a provider declaring egress: false with off-machine egress_scopes is queried",
  expectFail: ["host:C6"],
  finding: /the host transmitted a query payload .* declares off-machine scopes .*third-party-model.* with no consent receipt/,
  apply: () => ({
    scopeRefusal: () => undefined,
  }),
});
