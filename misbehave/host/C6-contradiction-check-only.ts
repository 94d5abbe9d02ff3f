/**
 * Defect: rejects off-machine egress_scopes beside egress: false at the handshake (the C5 contradiction), and has no
 * scope gate beyond that: a consistent provider declaring egress: true with off-machine scopes passes on the boolean
 * consent alone.
 * Breaks C6: "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine
 * egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted."
 */
import { offMachineScopes } from "../../src/reference/host-gate.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C6-contradiction-check-only",
  defect:
    "refuses a provider declaring off-machine egress_scopes beside egress: false as a contradiction (C5), and gates nothing else on scopes: told it holds a boolean consent, it queries a provider declaring them beside egress: true",
  expectFail: ["host:C6"],
  finding: { code: "host:C6.query-unreceipted", params: { scenario: "egress-scopes-consented", egress: true } },
  apply: () => ({
    scopeRefusal(ack) {
      const flow = isObj(ack.provider) && isObj(ack.provider.data_flow) ? ack.provider.data_flow : {};
      if (flow.egress !== false || offMachineScopes(ack).length === 0) return undefined;
      return { code: "bad_response", message: "the provider declares egress_scopes beside egress: false, a contradiction (C5)" };
    },
  }),
});
