import { defineMode } from "./mode.ts";

/** Breaks F4: RFC 3339 allows "+00:00"; the profile requires "Z". */
export default defineMode({
  name: "F4-offset-timestamp",
  defect: "writes recorded_at with a numeric +00:00 offset instead of Z",
  expectFail: ["F4"],
  finding: { code: "F4.off-profile", params: { members: [{ name: "recorded_at", value: "2026-07-20T18:00:00+00:00" }] } },
  apply: (honest) => ({
    frame(doc) {
      return { ...honest.frame.call(this, doc), recorded_at: doc.recorded_at.replace(/Z$/, "+00:00") };
    },
  }),
});
