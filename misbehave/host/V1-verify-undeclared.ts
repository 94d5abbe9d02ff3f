/**
 * Defect: verifies the frames it got from any provider, capabilities.verify declared or not.
 * Breaks the capability gate of verify (context-reuse, requirement V3): "A host MUST NOT send `context/verify` to a
 * provider that does not advertise `capabilities.verify`"; scored under host:V1, the host's verify check.
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "V1-verify-undeclared",
  defect: "sends a verify after the frames even when the provider did not declare capabilities.verify",
  expectFail: ["host:V1"],
  finding: "host:V1.verify-undeclared",
  apply: () => ({
    wantsVerify: () => true,
  }),
});
