/**
 * Defect: drops every frame whose attestation it cannot verify.
 * Breaks F9: "A host MUST NOT reject or drop a frame solely because it carries an attestation the host cannot
 * verify; an unverifiable attestation degrades the frame to unattested, exactly as if it carried none."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "F9-drop-unverifiable",
  defect: "drops a frame whose attestation does not verify (an unknown algorithm or key, a bad signature) instead of keeping it as unattested",
  expectFail: ["host:F9"],
  finding: { code: "host:F9.dropped-for-attestation", params: { provider: "cgp-conform-signed" } },
  apply: () => ({
    admit: (_frame, attestation) => attestation.kind !== "unverifiable",
  }),
});
