/**
 * Defect: in its second turn it keeps the stored copies of the frames verify called stale or gone, beside what it
 * fetches again.
 * Breaks V4: "A host MUST NOT keep serving its stored copy of a stale or gone frame."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "V4-keep-stale-copies",
  defect: "reuses the stored body of a frame verify called stale or gone, as if it were valid",
  expectFail: ["host:V4"],
  finding: { code: "host:V4.stored-copy", params: { markers: ["cgpmark-re-02", "cgpmark-re-03"] } },
  apply: (honest) => ({
    reuses(frame, verdict) {
      return verdict?.status === "stale" || verdict?.status === "gone" || honest.reuses.call(this, frame, verdict);
    },
  }),
});
