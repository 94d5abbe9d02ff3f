/**
 * Defect: references each served frame in its usage report by its frame id alone.
 * Breaks UR1: "The report MUST reference those frames by their FrameId (§6.3), so a billed total is walkable back
 * to the exact (provider id, frame id, content_digest) triples behind it."
 */
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "UR1-frame-id-only",
  defect: "writes each served frame of its usage reports as { frame: { frame_id } }, without the provider id and content_digest of its FrameId",
  expectFail: ["host:UR1"],
  finding: "host:UR1.no-frame-id",
  apply: (honest) => ({
    usageReport(rounds, asOf) {
      const report = honest.usageReport.call(this, rounds, asOf);
      const providers = (report.providers as unknown[]).filter(isObj).map((p) => ({
        ...p,
        served_frames: (p.served_frames as unknown[]).filter(isObj).map((sf) => ({ ...sf, frame: { frame_id: (sf.frame as { frame_id: string }).frame_id } })),
      }));
      return { ...report, providers };
    },
  }),
});
