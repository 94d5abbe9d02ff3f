import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, printed } from "../kit/host-evidence.ts";
import { PLACEHOLDERS, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/**
 * @anchor C8
 * Stimulus: every line the host printed on its own stdout and stderr, in
 * every scenario (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation): the
 * run's bearer token is offered to every scenario over HTTP, and
 * bearer-token requires it. The run looks for the token in each line, raw
 * and encoded, and records the line with it redacted.
 * Precondition: the host reached its providers over HTTP (over stdio there is
 * no bearer token: skip), and at least one of its requests carried the run's
 * token (else it never held one to leak: skip).
 * Findings: each printed line that holds the token, in any form found, fails,
 * naming the scenario, the stream, the line and the form; the line itself is
 * never quoted. Otherwise one pass, counting what was read.
 */
export default defineHostCheck({
  anchor: "C8",
  title: "The host never writes out the bearer token",
  level: "MUST",
  requirement:
    "A host MUST NOT log, or place in an error surfaced off-machine, any bearer token, credential, or authorization header used to reach a provider.",
  scenarios: SCENARIOS,
  score(input) {
    if (input.transport === "stdio") {
      return {
        skip: `the host reached its providers over stdio: C8 binds a bearer token used to reach a provider over HTTP; run again with ${PLACEHOLDERS.url} in the host's command line`,
      };
    }
    const views = ranViews(input, SCENARIOS);
    const used = views.filter((v) => v.lines().some((l) => l.auth === "run-token"));
    if (used.length === 0) return { skip: "the host never used the run's bearer token: none of its requests carried it, so it held no credential to leak" };
    const out: Evidence[] = [];
    for (const v of views) {
      for (const e of v.output()) {
        if (!e.leaked || e.leaked.length === 0) continue;
        out.push({
          ok: false,
          message: `scenario ${v.name}, line ${e.n}: the host's ${e.dir} carries the run's bearer token (as ${e.leaked.join(", ")}); a host MUST NOT log a credential: redact it before it reaches any log or error message`,
          expected: "no credential in anything the host prints",
          actual: `the token, as ${e.leaked.join(", ")} (the line is not quoted)`,
          lines: [e.n],
        });
      }
    }
    if (out.length > 0) return out;
    const lines = printed(views);
    return [
      {
        ok: true,
        message: `across ${count(views.length, "scenario")} (the token carried in ${used.map((v) => v.name).join(", ")}) the host printed ${count(lines, "line")}, and none holds the run's bearer token, raw or encoded in any form the run checks for`,
        lines: [],
      },
    ];
  },
});
