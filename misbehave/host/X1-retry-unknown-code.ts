/**
 * Defect: reads an error code it does not recognise as retryable (as unavailable) and sends the query twice more
 * before giving up; internal it does not retry.
 * Breaks X1: "The code vocabulary is open. An unrecognised code MUST be treated as internal." (§10: "a host must never
 * infer "safe to retry" from a code it does not understand".)
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "X1-retry-unknown-code",
  defect: "treats an unrecognised error code as retryable (unavailable), sending the query twice more; internal is not retried",
  expectFail: ["host:X1"],
  finding: { code: "host:X1.retried-unlike-internal", params: { sent: 3 } },
  apply: (honest) => ({
    classify(code) {
      const cls = honest.classify.call(this, code);
      return typeof code === "string" && cls === "internal" && code !== "internal" ? "unavailable" : cls;
    },
  }),
});
