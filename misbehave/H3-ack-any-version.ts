import { defineMode } from "./mode.ts";

/** Breaks H3 (and H1's family rule for that ack): a mismatch is acknowledged instead of named. */
export default defineMode({
  name: "H3-ack-any-version",
  defect: "acknowledges every handshake, whatever its version family",
  expectFail: ["H3"],
  finding: "H3.acknowledged",
  apply: () => ({
    onHandshake() {
      return [this.ack()];
    },
  }),
});
