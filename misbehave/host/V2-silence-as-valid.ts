/**
 * Defect: in its second turn it reuses the stored body of a frame it asked about whose verdict the answer left out.
 * Breaks V2: "A requested identity that comes back with no verdict MUST be treated by the host as unknown" (and V3:
 * "unknown MUST NOT be read as validity").
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "V2-silence-as-valid",
  defect: "takes an identity its verify asked about and got no verdict for as still valid, and reuses the stored body",
  expectFail: ["host:V2"],
  finding: { code: "host:V2.stored-copy", params: { markers: ["cgpmark-re-05"] } },
  apply: (honest) => ({
    reuses(frame, verdict, ack) {
      // Silence after a verify it sent: a provider without verify, asked nothing, is context-reuse §4's and not this defect's.
      const asked = ack === undefined || this.wantsVerify(ack);
      return (asked && verdict === undefined && typeof frame.content_digest === "string") || honest.reuses.call(this, frame, verdict, ack);
    },
  }),
});
