import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { findings } from "../kit/findings.ts";
import { count, printed } from "../kit/host-evidence.ts";
import { PLACEHOLDERS, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

const F = findings({
  "token-printed": {
    apart: ["stream", "forms"],
    says: (p: { scenario: string; line: number; stream: string; forms: string[] }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's ${p.stream} carries the run's bearer token (as ${p.forms.join(", ")}); a host MUST NOT log a credential: redact it before it reaches any log or error message`,
    expected: () => "no credential in anything the host prints",
    actual: (p: { forms: string[] }) => `the token, as ${p.forms.join(", ")} (the line is not quoted)`,
  },
  "no-token-printed": {
    ok: true,
    says: (p: { scenarios: number; carried: string[]; printed: number }) =>
      `across ${count(p.scenarios, "scenario")} (the token carried in ${p.carried.join(", ")}) the host printed ${count(p.printed, "line")}, and none holds the run's bearer token, raw or encoded in any form the run checks for`,
  },
});

/**
 * @anchor C8
 * Stimulus: every line the host printed on its own stdout and stderr, in
 * every scenario (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type): the
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
  findings: F.table,
  anchor: "C8",
  title: "The host never writes out the bearer token",
  level: "MUST",
  requirement:
    "A host MUST NOT log, or place in an error surfaced off-machine, any bearer token, credential, or authorization header used to reach a provider.",
  scenarios: SCENARIOS,
  needs: { work: "reach its providers over HTTP ({url}), with the bearer token the run gives (CGP_PROVIDER_TOKEN)" },
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
        out.push(F.say("token-printed", { scenario: v.name, line: e.n, stream: e.dir, forms: [...e.leaked] }, { lines: [e.n] }));
      }
    }
    if (out.length > 0) return out;
    const lines = printed(views);
    return [F.say("no-token-printed", { scenarios: views.length, carried: used.map((v) => v.name), printed: lines }, { lines: [] })];
  },
});
