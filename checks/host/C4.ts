import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import {
  count,
  dataFlow,
  ended,
  endingParam,
  lineWords,
  notRun,
  queriedBaseline,
  servedAt,
  servedParam,
  servedSaid,
  type Ending,
  type Served,
} from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { HOST_ENV, LOCK_STEP, NON_LOOPBACK_TLS, PLACEHOLDERS } from "../../src/protocol/host-scenarios.ts";

/** The provider off loopback, and the ack's line where one claimed a local posture (null: no ack). */
type Claimed = { scenario: string; served: Served; ack: number | null };
const claim = (p: Claimed): string =>
  p.ack !== null ? `whose handshake_ack (line ${p.ack}) declares data_flow.egress: false` : "declaring data_flow.egress: false";

const F = findings({
  "query-off-loopback": {
    says: (p: Claimed & { line: number; goal?: Param }) =>
      `scenario ${p.scenario}, line ${p.line}: the host transmitted a query payload (goal ${show(p.goal, 60)}) to a provider ${servedSaid(p.served)}, which is not loopback, ${claim(p)}, with no consent recorded: a non-loopback provider is egress whatever it declares, so gate it behind consent (C2) as any egress provider`,
    expected: () => "the provider treated as egress: no query before consent is recorded",
    actual: (p: { line: number }) => `a query at ${lineWords([p.line])}`,
  },
  "tls-failed": {
    untestable: true,
    says: (p: { scenario: string; served: Served; tls: number; why: string }) =>
      `scenario ${p.scenario}: the host's TLS handshake with the provider ${servedSaid(p.served)} did not complete (line ${p.tls}: ${p.why}) and it sent nothing, so whether it treats the provider as egress was never reached; have it trust the run's CA, the PEM file in ${HOST_ENV.ca} and ${PLACEHOLDERS.ca}`,
  },
  "no-query": {
    ok: true,
    says: (p: Claimed & { sent: number; ending: Ending; lock_step_query: number }) =>
      `scenario ${p.scenario}: the host sent no query to the provider ${servedSaid(p.served)}, which is not loopback, ${claim(p)}: ${p.sent === 0 ? "it sent nothing at all" : `it sent ${count(p.sent, "envelope")}, no query`}, and ${ended(p.ending)}, though it queried an honest provider in lock-step (line ${p.lock_step_query})`,
  },
});

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
  findings: F.table,
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
    const claimed: Claimed = { scenario: v.name, served: servedParam(v), ack: ack ? ack.n : null };
    const queries = v.sent("query");
    if (queries.length > 0) {
      return queries.map(({ n, env }): Evidence => {
        const goal = isObj(env.query) ? env.query.goal : undefined;
        return F.say(
          "query-off-loopback",
          { ...claimed, line: n, ...(goal === undefined ? {} : { goal: goal as Param }) },
          {
            lines: [n, ...(ack ? [ack.n] : []), ...at.lines],
          },
        );
      });
    }
    const tls = v.notes("tls-failed");
    if (v.lines().length === 0 && tls.length > 0) {
      return [
        F.say(
          "tls-failed",
          { scenario: v.name, served: claimed.served, tls: tls[0]!.n, why: tls[0]!.reason ?? "no reason given" },
          { lines: [...tls.map((e) => e.n), ...at.lines] },
        ),
      ];
    }
    const base = queriedBaseline(scenario(LOCK_STEP), "C4", "a non-loopback provider declaring egress: false");
    if ("skip" in base) return base;
    const end = v.ending();
    const sent = v.sent();
    return [
      F.say(
        "no-query",
        { ...claimed, sent: sent.length, ending: endingParam(end), lock_step_query: base.query.n },
        {
          lines: [end.n, base.query.n, ...(ack ? [ack.n] : []), ...at.lines],
        },
      ),
    ];
  },
});
