/**
 * Defect: on a handshake_ack of another family it neither refuses nor goes on: it waits, with no deadline, for a
 * compatible ack that never comes.
 * Breaks H3: "A version-family mismatch MUST be reported as a named error, never left to hang."
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "H3-wait-forever",
  defect: "on a wrong-family handshake_ack, waits for ever (no deadline) for a compatible one",
  expectFail: ["host:H3"],
  finding: "host:H3.hung",
  apply: () => ({
    onWrongFamily: () => "keep-reading",
  }),
});
