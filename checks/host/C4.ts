import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, dataFlow, lineWords, notRun, queriedBaseline, servedAt } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { HOST_ENV, LOCK_STEP, NON_LOOPBACK_TLS, PLACEHOLDERS } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

/**
 * @anchor C4
 * Stimulus: scenario non-loopback-tls, whose scenario provider is served on
 * the --listen address (an address of this machine that is not loopback)
 * over https://, {url} being that address, with a certificate made for the
 * run (its CA in CGP_PROVIDER_CA and {ca}). It declares data_flow.egress:
 * false and no scopes, and the host holds no consent. And scenario
 * lock-step (the baseline). TLS leaves C7 nothing to refuse and the claim
 * leaves C2 and C6 nothing to gate: only treating the provider as egress
 * because it is not on loopback, whatever it claims, with no consent
 * recorded for it (C2), keeps a query back. Without --listen the scenario
 * does not run, and the check skips saying so.
 * Precondition: where the provider answered a handshake_ack, it claims
 * egress: false with no off-machine scope (else the claim this rule
 * overrides was not made: skip). A host that refuses before any byte
 * leaves, as the reference host does, never sees the claim, and is judged
 * all the same: the claim is the scenario's.
 * Findings: each query the host sent there fails, whatever lock-step shows:
 * treated as egress, the provider gets no query payload before consent is
 * recorded, and none is. A handshake is no query payload: treating the
 * provider as egress gates its queries, not the exchange that tells the host
 * what it is, so a host may handshake and refuse then. Where no query was
 * sent and the host queried in lock-step, a pass.
 * Reading: a host that sent no query in lock-step either shows nothing by
 * sending none here, so that skips, as where lock-step did not run. A host
 * whose TLS handshake with the provider never completed (it did not trust
 * the run's CA) and that sent nothing never reached the question C4 asks:
 * that is not observed, naming {ca}, never a pass.
 */
export default defineHostCheck({
  anchor: "C4",
  title: "The host treats a non-loopback provider as egress whatever it declares",
  level: "MUST",
  requirement: "A host's HTTP transport MUST treat every non-loopback provider as egress regardless of its handshake claim.",
  scenarios: [NON_LOOPBACK_TLS, LOCK_STEP],
  score({ scenario }) {
    const v = scenario(NON_LOOPBACK_TLS);
    if (!v.ran) return { skip: notRun(v) };
    const at = servedAt(v);
    const ack = v.ack();
    if (ack) {
      const flow = dataFlow(ack);
      const scopes = Array.isArray(flow.egress_scopes) ? flow.egress_scopes.filter((s) => s !== "local-only") : [];
      if (flow.egress !== false || scopes.length > 0)
        return {
          skip: `scenario ${v.name}: the scenario provider's handshake_ack (line ${ack.n}) does not claim a local posture (egress ${show(flow.egress)}, off-machine scopes ${show(scopes)}), so there is no claim for the transport to override`,
        };
    }
    const claim = ack ? `whose handshake_ack (line ${ack.n}) declares data_flow.egress: false` : "declaring data_flow.egress: false";
    const queries = v.sent("query");
    if (queries.length > 0) {
      return queries.map(
        ({ n, env }): Evidence => ({
          ok: false,
          message: `scenario ${v.name}, line ${n}: the host transmitted a query payload (goal ${show(isObj(env.query) ? env.query.goal : undefined, 60)}) to a provider ${at.words}, which is not loopback, ${claim}, with no consent recorded: a non-loopback provider is egress whatever it declares, so gate it behind consent (C2) as any egress provider`,
          expected: "the provider treated as egress: no query before consent is recorded",
          actual: `a query at ${lineWords([n])}`,
          lines: [n, ...(ack ? [ack.n] : []), ...at.lines],
        }),
      );
    }
    const tls = v.notes("tls-failed");
    if (v.lines().length === 0 && tls.length > 0) {
      return [
        {
          ok: false,
          untestable: true,
          message: `scenario ${v.name}: the host's TLS handshake with the provider ${at.words} did not complete (line ${tls[0]!.n}: ${tls[0]!.reason ?? "no reason given"}) and it sent nothing, so whether it treats the provider as egress was never reached; have it trust the run's CA, the PEM file in ${HOST_ENV.ca} and ${PLACEHOLDERS.ca}`,
          lines: [...tls.map((e) => e.n), ...at.lines],
        },
      ];
    }
    const base = queriedBaseline(scenario(LOCK_STEP), "C4", "a non-loopback provider declaring egress: false");
    if ("skip" in base) return base;
    const end = v.ending();
    const sent = v.sent();
    return [
      {
        ok: true,
        message: `scenario ${v.name}: the host sent no query to the provider ${at.words}, which is not loopback, ${claim}: ${sent.length === 0 ? "it sent nothing at all" : `it sent ${count(sent.length, "envelope")}, no query`}, and ${describeEnding(end)}, though it queried an honest provider in lock-step (line ${base.query.n})`,
        lines: [end.n, base.query.n, ...(ack ? [ack.n] : []), ...at.lines],
      },
    ];
  },
});
