/**
 * Defect: sends an id on every query and verify, correlation declared or not.
 * Breaks H4 (§3.2): "A host MUST NOT send an id to a provider that did not declare capabilities.correlation".
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "H4-id-without-correlation",
  defect: "sends an id on every query and verify, whether or not the provider declared capabilities.correlation",
  expectFail: ["host:H4"],
  finding: "host:H4.id-without-correlation",
  apply: () => ({
    requestId: (_ack, n) => `ref-host-${n}`,
  }),
});
