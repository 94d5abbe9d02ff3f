/**
 * Defect: waits for the query's answer with no deadline, so a provider that stops answering hangs it.
 * Breaks the robustness §11.1 describes of the reference host (S11-robust: it drives the host "under an explicit
 * timeout so a stall is a distinct failure"): informative, binding no host, so it is info, never a warning.
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S11-no-read-timeout",
  defect: "reads the answer to its query with no deadline: a provider that stops answering leaves it waiting for ever",
  expectFail: [],
  expectInfo: ["host:S11-robust"],
  finding: { code: "host:S11-robust.not-ended", params: { fault: { kind: "stopped" } } },
  apply: (honest) => ({
    deadline(phase) {
      return phase === "query" ? undefined : honest.deadline.call(this, phase);
    },
  }),
});
