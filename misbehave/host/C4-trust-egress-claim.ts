/**
 * Defect: takes a provider's data_flow.egress claim at its word whatever its address: a provider off loopback that declares egress: false is queried with no consent.
 * Breaks C4: "A host's HTTP transport MUST treat every non-loopback provider as egress regardless of its handshake claim."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "C4-trust-egress-claim",
  defect:
    "takes data_flow.egress at its word whatever the provider's address: a non-loopback provider declaring egress: false is queried with no consent (it still refuses plain http:// to one)",
  expectFail: ["host:C4"],
  finding: "host:C4.query-off-loopback",
  only: "http",
  apply: () => ({
    remoteRefusal: () => undefined,
  }),
});
