/**
 * Defect: reads an error that carries no code as retryable (as unavailable) and sends the query twice more before
 * giving up; internal it does not retry.
 * Breaks X2: "An absent code MUST be treated as internal." (§10: a host must never infer "safe to retry" "from
 * silence".)
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "X2-retry-codeless-error",
  defect: "treats an error with no code as retryable (unavailable), sending the query twice more; internal is not retried",
  expectFail: ["host:X2"],
  finding: { code: "host:X2.retried-unlike-internal", params: { sent: 3 } },
  apply: (honest) => ({
    classify(code) {
      return code === undefined ? "unavailable" : honest.classify.call(this, code);
    },
  }),
});
