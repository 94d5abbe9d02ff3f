/**
 * Defect: waits for the query's answer with no deadline, so a provider that stops answering hangs it.
 * Breaks the robustness a host owes a provider it does not control (S11-robust; §11.1 drives the host "under an
 * explicit timeout so a stall is a distinct failure"): stated with no keyword, so it warns.
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S11-no-read-timeout",
  defect: "reads the answer to its query with no deadline: a provider that stops answering leaves it waiting for ever",
  expectFail: [],
  expectWarn: ["host:S11-robust"],
  finding: /the host did not end within \d+ ms after .* and was killed .*a host needs a deadline on every read/,
  apply: (honest) => ({
    deadline(phase) {
      return phase === "query" ? undefined : honest.deadline.call(this, phase);
    },
  }),
});
