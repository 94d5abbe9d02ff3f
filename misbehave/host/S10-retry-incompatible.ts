/**
 * Defect: reads incompatible_version as retryable, and sends its handshake once more before giving up.
 * Breaks protocol-surface §10: "incompatible_version is the named error H3 requires — a version-family mismatch is
 * permanent, so a host MUST NOT read it as retryable."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S10-retry-incompatible",
  defect: "retries a handshake answered with incompatible_version once",
  expectFail: ["host:S10-incompatible"],
  finding: { code: "host:S10-incompatible.retried", params: { first: { type: "handshake" } } },
  apply: (honest) => ({
    handshakeRetries(cls) {
      return cls === "incompatible_version" ? 1 : honest.handshakeRetries.call(this, cls);
    },
  }),
});
