/**
 * Defect: after the handshake_ack, writes a debug line that is not JSON to the provider (over HTTP: posts it as a
 * request body), then reads and discards the one reply it provokes.
 * Breaks §2 (S2-framing): "Every message is a single JSON object — an envelope"; "stdio: exactly one envelope per
 * line" (stated with no keyword: it warns).
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S2-non-json-line",
  defect: "writes the line `# reference-host: debug` to the provider between the handshake and the query",
  // host:S2-framing holds text that is not an envelope as a SHOULD ("exactly one envelope per line" carries no keyword), as for a provider's banner.
  expectFail: [],
  expectWarn: ["host:S2-framing"],
  finding: { code: "host:S2-framing.not-json", params: { first: "# reference-host: debug" } },
  apply: () => ({
    beforeQuery: () => ["# reference-host: debug"],
  }),
});
