/**
 * Defect: takes a boolean consent (a ConsentRecord) for a provider as consent to every egress scope it declares.
 * Breaks C6: "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine
 * egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted."
 * (context-reuse §3: "A budget-style boolean ConsentRecord does not satisfy a scope gate; only a receipt for that
 * scope does.")
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C6-consent-record-for-scopes",
  defect:
    "lets a boolean consent stand for scope receipts: told it holds one (CGP_CONSENT=egress), it queries a provider declaring off-machine egress_scopes; without one it refuses, naming them",
  expectFail: ["host:C6"],
  finding: { code: "host:C6.query-unreceipted", params: { scenario: "egress-scopes-consented", egress: true } },
  apply: (honest) => ({
    scopeRefusal(ack) {
      return this.consent === "egress" ? undefined : honest.scopeRefusal.call(this, ack);
    },
  }),
});
