import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { dataFlow, lineWords } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { EGRESS_SCOPES, LOCK_STEP } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

/**
 * @anchor C6
 * Stimulus: scenario egress-scopes: the scenario provider's handshake_ack
 * declares off-machine egress_scopes (third-party-model, cgp-conform:mirror)
 * beside egress: false, and no consent receipt exists for any of them; and
 * scenario lock-step (the baseline), whose honest provider declares no scope.
 * Precondition: the ack declares at least one off-machine scope: anything but
 * local-only ("everything but local-only is off-machine"), an unrecognised
 * custom scope included ("an unrecognised custom scope is treated as
 * off-machine"); else skip.
 * Findings: any query the host sent in egress-scopes fails ("the payload
 * MUST NOT be transmitted"), one finding per query, whatever lock-step shows.
 * Where it sent none and queried in lock-step, a pass; and a stdout or stderr
 * line naming at least one declared off-machine scope is a pass too.
 * Reading: a host that sent no query in lock-step either (one that only
 * handshakes and exits) refused nothing by sending none here, so that skips,
 * as it does where lock-step did not run. The typed error the host must
 * raise may be surfaced where the run cannot see it (returned to a caller,
 * written to a log file), so an error that names no scope in the host's
 * output warns, and never fails. The scenario's provider declares those
 * scopes beside egress: false, a contradiction (C5) a host may reject at the
 * handshake for that reason instead: a line naming egress_scopes or C5 counts
 * as naming the refusal too.
 */
export default defineHostCheck({
  anchor: "C6",
  title: "The host refuses a query to a provider with unreceipted off-machine scopes",
  level: "MUST",
  requirement:
    "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted.",
  scenarios: [EGRESS_SCOPES, LOCK_STEP],
  score({ scenario }) {
    const v = scenario(EGRESS_SCOPES);
    if (!v.ran) return { skip: "scenario egress-scopes did not run, so no provider declared a scope" };
    const ack = v.ack();
    if (!ack) return { skip: "scenario egress-scopes: the scenario provider sent no handshake_ack, so no scope was declared" };
    const declared = dataFlow(ack).egress_scopes;
    const offMachine = Array.isArray(declared) ? declared.filter((s): s is string => typeof s === "string" && s !== "local-only") : [];
    if (offMachine.length === 0) {
      return {
        skip: `scenario egress-scopes: the scenario provider's handshake_ack (line ${ack.n}) declares no off-machine egress scope (${show(declared, 80)})`,
      };
    }
    const scopes = offMachine.map((s) => show(s, 40)).join(", ");
    const queries = v.sent("query");
    if (queries.length > 0) {
      return queries.map(
        ({ n, env }): Evidence => ({
          ok: false,
          message: `scenario egress-scopes, line ${n}: the host transmitted a query payload (goal ${show(isObj(env.query) ? env.query.goal : undefined, 60)}) to a provider whose handshake_ack (line ${ack.n}) declares off-machine scopes ${scopes} with no consent receipt; refuse the query with a typed error naming the scopes`,
          expected: "the query refused, its payload never transmitted",
          actual: `a query at ${lineWords([n])}`,
          lines: [n, ack.n],
        }),
      );
    }
    const base = scenario(LOCK_STEP);
    if (!base.ran) {
      return {
        skip: "C6 is judged against the baseline: lock-step did not run, so the host's sending no query to a provider declaring unreceipted scopes cannot be told from its sending none anywhere",
      };
    }
    const baseQuery = base.sent("query")[0];
    if (!baseQuery) {
      return {
        skip: `scenario lock-step: the host sent no query to an honest provider either (it ${describeEnding(base.ending())}), so its sending none to a provider declaring unreceipted scopes shows nothing about consent`,
      };
    }
    const end = v.ending();
    const out: Evidence[] = [
      {
        ok: true,
        message: `scenario egress-scopes: the host sent no query to a provider declaring unreceipted off-machine scopes ${scopes} (handshake_ack line ${ack.n}; it ${describeEnding(end)}), though it queried an honest provider in lock-step (line ${baseQuery.n})`,
        lines: [ack.n, end.n, baseQuery.n],
      },
    ];
    // The scopes named, or the contradiction named: the provider also declares egress: false beside them, which C5 says a host rejects at the handshake.
    const naming =
      v.output().find((e) => offMachine.some((s) => (e.line ?? "").includes(s))) ?? v.output().find((e) => /egress[_ ]scopes?|\bC5\b/i.test(e.line ?? ""));
    out.push(
      naming
        ? {
            ok: true,
            message: `scenario egress-scopes: the host's ${naming.dir} names the scopes at line ${naming.n}: ${show(naming.line, 100)}`,
            lines: [naming.n],
          }
        : {
            ok: false,
            level: "NONE",
            message: `scenario egress-scopes: nothing the host printed (${v.output().length} lines) names ${offMachine.length === 1 ? "the scope" : "any of the scopes"} ${scopes} its provider declares (handshake_ack line ${ack.n}): the typed error naming the scopes could not be seen in its output (it may be surfaced elsewhere)`,
            expected: `a typed error naming ${scopes}`,
            actual: `${v.output().length} lines printed, none naming a scope`,
            lines: [ack.n, end.n],
          },
    );
    return out;
  },
});
