import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { dataFlow, ended, endingParam, lineWords, type Ending } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { EGRESS, LOCK_STEP } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

const F = findings({
  "query-before-consent": {
    says: (p: { line: number; ack: number; goal?: Param }) =>
      `scenario egress, line ${p.line}: the host transmitted a query payload (goal ${show(p.goal, 60)}) to a provider whose handshake_ack (line ${p.ack}) declares data_flow.egress: true, with no consent recorded; gate an egress provider behind explicit, named consent before any query`,
    expected: () => "no query before consent is recorded",
    actual: (p: { line: number }) => `a query at ${lineWords([p.line])}`,
  },
  "no-query": {
    ok: true,
    says: (p: { ack: number; ending: Ending; lock_step_query: number }) =>
      `scenario egress: the host sent no query to the egress provider (handshake_ack line ${p.ack}; it ended: ${ended(p.ending)}), though it queried an honest provider in lock-step (line ${p.lock_step_query})`,
  },
});

/**
 * @anchor C2
 * Stimulus: scenario egress: the scenario provider's handshake_ack declares
 * provider.data_flow.egress: true (and no scopes), and the run records no
 * consent for it; and scenario lock-step (the baseline), whose honest
 * provider declares no egress. Precondition: that ack was sent with
 * egress: true (else skip).
 * Findings: any query the host sent in egress fails, one finding per query,
 * with its goal: no consent exists, so a query payload reaching the provider
 * is one transmitted before consent was recorded (a query pipelined ahead of
 * the ack too: the provider is an egress one whether or not the host had
 * read so yet). Only a query counts: a verify carries frame identities, not
 * a query payload, and a handshake or shutdown carries neither. Otherwise,
 * where the host queried in lock-step, a pass, saying how the host ended.
 * Reading: sending no query shows consent honoured only in a host that
 * queries where nothing forbids it; a host that sent no query in lock-step
 * either (one that only handshakes and exits) shows nothing about consent by
 * sending none to the egress provider, so that skips, as it does where
 * lock-step did not run. A query in egress fails whatever lock-step shows.
 * Scenario egress-scopes-consented, whose provider declares egress: true
 * too, is not read: there the host is told it holds a boolean consent for
 * that provider, so a query there is not one sent before consent was
 * recorded; whether its unreceipted scopes stop it is host:C6's to judge.
 * C1 ("MUST NOT auto-enable a provider declaring egress: true") is not
 * separately observable: a host that auto-enabled it shows here as a query.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "C2",
  title: "The host sends no query payload to an unconsented egress provider",
  level: "MUST",
  requirement: "A host MUST NOT transmit a query payload to an egress provider before consent is recorded.",
  scenarios: [EGRESS, LOCK_STEP],
  score({ scenario }) {
    const v = scenario(EGRESS);
    if (!v.ran) return { skip: "scenario egress did not run, so no provider declared egress" };
    const ack = v.ack();
    if (!ack) return { skip: "scenario egress: the scenario provider sent no handshake_ack, so no egress was declared" };
    if (dataFlow(ack).egress !== true) {
      return {
        skip: `scenario egress: the scenario provider's handshake_ack (line ${ack.n}) does not declare data_flow.egress: true (${show(dataFlow(ack).egress)})`,
      };
    }
    const queries = v.sent("query");
    if (queries.length > 0) {
      return queries.map(({ n, env }): Evidence => {
        const goal = isObj(env.query) ? env.query.goal : undefined;
        return F.say("query-before-consent", { line: n, ack: ack.n, ...(goal === undefined ? {} : { goal: goal as Param }) }, { lines: [n, ack.n] });
      });
    }
    const base = scenario(LOCK_STEP);
    if (!base.ran) {
      return {
        skip: "C2 is judged against the baseline: lock-step did not run, so the host's sending no query to the egress provider cannot be told from its sending none anywhere",
      };
    }
    const baseQuery = base.sent("query")[0];
    if (!baseQuery) {
      return {
        skip: `scenario lock-step: the host sent no query to an honest provider either (it ${describeEnding(base.ending())}), so its sending none to the egress provider shows nothing about consent`,
      };
    }
    const end = v.ending();
    return [F.say("no-query", { ack: ack.n, ending: endingParam(end), lock_step_query: baseQuery.n }, { lines: [ack.n, end.n, baseQuery.n] })];
  },
});
