import { defineHostCheck } from "../kit/host.ts";
import { differentials, reactsAsInternal } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { ERROR_INTERNAL, ERROR_UNKNOWN_CODE, UNHEARD_OF_CODE } from "../../src/protocol/host-scenarios.ts";

/**
 * @anchor X1
 * Stimulus: scenarios error-unknown-code and error-internal (the baseline),
 * identical but for the code their scenario providers answer every query
 * with: cgp-conform:unheard-of, which no revision defines, and internal. Scored
 * as a differential: the host must react to the unknown code as it reacts to
 * internal, the code it must be treated as.
 * Precondition: the host sent a query in error-internal (else it never got to
 * the error: skip), and in error-unknown-code (else the unknown code never
 * reached it: skip).
 * Findings: retrying in one scenario and not in the other fails (a retry on
 * the unknown code that it does not make on internal infers "safe to retry";
 * giving up at once on it while retrying internal treats it as some other
 * code); an ending unlike error-internal's (kind and exit status) fails.
 * Reading: where the host retried in both but sent a different number of
 * queries, the counts of a deadline- or backoff-bound retry loop can differ
 * by timing alone, so that difference warns and never fails.
 * Both scenarios answer every query with an error, so no frame reaches the
 * host and there is no block to compare: what it delivered shows nothing
 * here. A host of several turns shows whether it carried on after the error
 * in the queries it sent: one that queries again after internal and not
 * after this error is counted as giving up at once, as above.
 */
export default defineHostCheck({
  findings: differentials.table,
  anchor: "X1",
  title: "The host treats an unknown error code as internal",
  level: "MUST",
  requirement: "The code vocabulary is open. An unrecognised code MUST be treated as internal.",
  scenarios: [ERROR_INTERNAL, ERROR_UNKNOWN_CODE],
  score: ({ scenario }) =>
    reactsAsInternal(scenario(ERROR_INTERNAL), scenario(ERROR_UNKNOWN_CODE), `answered error ${show(UNHEARD_OF_CODE)}`, "the unknown code"),
});
