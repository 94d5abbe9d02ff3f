/**
 * Defect: in its second turn it reuses the stored body of a frame verify called unknown.
 * Breaks V3: "A host MUST reuse a held frame body only on valid; unknown MUST NOT be read as validity."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "V3-unknown-as-valid",
  defect: "reads a verdict of unknown as valid, and reuses the stored body",
  expectFail: ["host:V3"],
  finding: { code: "host:V3.stored-copy", params: { markers: ["cgpmark-re-04"] } },
  apply: (honest) => ({
    reuses(frame, verdict) {
      return verdict?.status === "unknown" || honest.reuses.call(this, frame, verdict);
    },
  }),
});
