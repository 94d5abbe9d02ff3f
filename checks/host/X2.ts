import { defineHostCheck } from "../kit/host.ts";
import { differentials, reactsAsInternal } from "../kit/host-evidence.ts";
import { ERROR_INTERNAL, ERROR_NO_CODE } from "../../src/protocol/host-scenarios.ts";

/**
 * @anchor X2
 * Stimulus: scenarios error-no-code and error-internal (the baseline),
 * identical but for the error their scenario providers answer every query
 * with: one with a message and no code (the schema makes code optional), and
 * one with code internal. Scored as a differential, as X1: the host must
 * react to the absent code as it reacts to internal.
 * Precondition: the host sent a query in both (else the error never reached
 * it: skip).
 * Findings: retrying in one scenario and not in the other fails (silence is
 * no more "safe to retry" than an unknown code); an ending unlike
 * error-internal's (kind and exit status) fails. Reading: where the host
 * retried in both but sent a different number of queries, the counts of a
 * time-bound retry loop can differ by timing alone, so that difference warns
 * and never fails.
 * Both scenarios answer every query with an error, so no frame reaches the
 * host and there is no block to compare: what it delivered shows nothing
 * here. A host of several turns shows whether it carried on after the error
 * in the queries it sent: one that queries again after internal and not
 * after this error is counted as giving up at once, as above.
 */
export default defineHostCheck({
  findings: differentials.table,
  anchor: "X2",
  title: "The host treats an error without a code as internal",
  level: "MUST",
  requirement: "An absent code MUST be treated as internal.",
  scenarios: [ERROR_INTERNAL, ERROR_NO_CODE],
  score: ({ scenario }) => reactsAsInternal(scenario(ERROR_INTERNAL), scenario(ERROR_NO_CODE), "answered an error with no code", "an absent code"),
});
