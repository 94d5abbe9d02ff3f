import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, dataFlow, ended, endingParam, lineWords, type Ending } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { EGRESS_SCOPES, EGRESS_SCOPES_CONSENTED, HOST_ENV, LOCK_STEP } from "../../src/protocol/host-scenarios.ts";
import { describeEnding, type HostEnvelope, type HostView } from "../../src/transcript/host.ts";

/** The scenarios whose providers declare off-machine scopes no receipt covers: beside egress: false, and beside egress: true with a boolean consent. */
const SCOPED = [EGRESS_SCOPES, EGRESS_SCOPES_CONSENTED];

/** A provider declaring off-machine scopes: its ack's line, the scopes and its egress flag, and the boolean consent the host was told it holds (null: none). */
type Scoped = { scenario: string; ack: number; scopes: string[]; egress?: Param; consent: string | null };
const scopesSaid = (p: Scoped): string => p.scopes.map((s) => show(s, 40)).join(", ");
const flag = (p: Scoped): string => `egress: ${show(p.egress)}`;

/** What the host was told it holds in a scenario, in the words of the evidence. */
function told(p: { consent: string | null }): string {
  return p.consent
    ? `the host was told it holds a boolean consent for it (${HOST_ENV.consent}=${p.consent}) and no receipt for any scope`
    : "no consent receipt exists";
}

const F = findings({
  "query-unreceipted": {
    says: (p: Scoped & { line: number; goal?: Param }) =>
      `scenario ${p.scenario}, line ${p.line}: the host transmitted a query payload (goal ${show(p.goal, 60)}) to a provider whose handshake_ack (line ${p.ack}) declares off-machine scopes ${scopesSaid(p)} beside ${flag(p)}, and ${told(p)}: ${p.consent ? "a boolean consent satisfies no scope gate; " : ""}refuse the query with a typed error naming the scopes`,
    expected: () => "the query refused, its payload never transmitted",
    actual: (p: { line: number }) => `a query at ${lineWords([p.line])}`,
  },
  refused: {
    ok: true,
    says: (p: Scoped & { ending: Ending; lock_step_query: number }) =>
      `scenario ${p.scenario}: the host sent no query to a provider declaring unreceipted off-machine scopes ${scopesSaid(p)} beside ${flag(p)} (handshake_ack line ${p.ack}; ${told(p)}; it ${ended(p.ending)}), though it queried an honest provider in lock-step (line ${p.lock_step_query})`,
  },
  "scopes-named": {
    ok: true,
    says: (p: { scenario: string; stream: string; line: number; text: string }) =>
      `scenario ${p.scenario}: the host's ${p.stream} names the scopes at line ${p.line}: ${show(p.text, 100)}`,
  },
  "scopes-unnamed": {
    cites: "A host MUST refuse a query, with a typed error naming the scopes",
    reading:
      "the typed error may be returned to a caller or written where the run cannot see it, and a host that refused by its boolean consent gate cannot be told from one that refused by a scope gate, so output naming no scope does not show the error names none",
    level: "NONE",
    says: (p: Scoped & { printed: number }) =>
      `scenario ${p.scenario}: nothing the host printed (${count(p.printed, "line")}) names ${p.scopes.length === 1 ? "the scope" : "any of the scopes"} ${scopesSaid(p)} its provider declares (handshake_ack line ${p.ack}): the typed error naming the scopes could not be seen in its output (it may be surfaced elsewhere)${p.consent ? `; and a host that did not take the boolean consent it was given (${HOST_ENV.consent}, {consent}) refused by its boolean gate, which shows no scope gate` : ""}`,
    expected: (p: Scoped) => `a typed error naming ${scopesSaid(p)}`,
    actual: (p: { printed: number }) => `${count(p.printed, "line")} printed, none naming a scope`,
  },
});

/** A scenario whose ack declares off-machine scopes: its view, the ack and those scopes; or why it shows nothing. */
function declared(v: HostView): { v: HostView; ack: HostEnvelope; offMachine: string[] } | string {
  if (!v.ran) return `scenario ${v.name} did not run, so no provider declared a scope there`;
  const ack = v.ack();
  if (!ack) return `scenario ${v.name}: the scenario provider sent no handshake_ack, so no scope was declared`;
  const scopes = dataFlow(ack).egress_scopes;
  const offMachine = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string" && s !== "local-only") : [];
  if (offMachine.length === 0)
    return `scenario ${v.name}: the scenario provider's handshake_ack (line ${ack.n}) declares no off-machine egress scope (${show(scopes, 80)})`;
  return { v, ack, offMachine };
}

/**
 * @anchor C6
 * Stimulus: scenarios egress-scopes and egress-scopes-consented, whose
 * scenario providers' handshake_acks declare off-machine egress_scopes
 * (third-party-model, cgp-conform:mirror) with no consent receipt for any
 * of them: in egress-scopes beside egress: false, with no consent at all; in
 * egress-scopes-consented beside egress: true, the host told (CGP_CONSENT
 * and {consent}: egress) that it holds a boolean consent for that provider
 * and no receipt. And scenario lock-step (the baseline), whose honest
 * provider declares no scope. Each scope scenario is judged on its own.
 * Precondition, per scenario: its ack declares at least one off-machine
 * scope: anything but local-only ("everything but local-only is
 * off-machine"), an unrecognised custom scope included ("an unrecognised
 * custom scope is treated as off-machine"); else it shows nothing, and the
 * check skips when neither does.
 * Findings: any query the host sent in either fails ("the payload MUST NOT
 * be transmitted"), one finding per query, whatever lock-step shows; in
 * egress-scopes-consented it is the boolean consent taken for a receipt
 * ("A budget-style boolean ConsentRecord does not satisfy a scope gate; only
 * a receipt for that scope does", context-reuse §3). Where it sent none and
 * queried in lock-step, a pass; and a stdout or stderr line naming at least
 * one declared off-machine scope is a pass too.
 * Reading: a host that sent no query in lock-step either (one that only
 * handshakes and exits) refused nothing by sending none, so that shows
 * nothing, as where lock-step did not run. The typed error the host must
 * raise may be surfaced where the run cannot see it (returned to a caller,
 * written to a log file), so an error that names no scope in the host's
 * output warns, and never fails. In egress-scopes the provider declares its
 * scopes beside egress: false, a contradiction (C5) a host may reject at the
 * handshake for that reason instead: there a line naming egress_scopes or C5
 * counts as naming the refusal too. That refusal shows no scope gate, which
 * is why egress-scopes-consented exists: its provider is consistent, the
 * boolean gate is open, and only a scope gate keeps the query back, so a
 * host that refuses in egress-scopes for the contradiction and queries here
 * fails. A host that does not take the consent it is given there refuses by
 * its boolean gate, which the run cannot tell from a scope gate: if it names
 * no scope, it warns as above.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "C6",
  title: "The host refuses a query to a provider with unreceipted off-machine scopes",
  level: "MUST",
  requirement:
    "A host MUST refuse a query, with a typed error naming the scopes, when a provider declares off-machine egress scopes and any such scope has no recorded consent receipt; the payload MUST NOT be transmitted.",
  scenarios: [EGRESS_SCOPES, EGRESS_SCOPES_CONSENTED, LOCK_STEP],
  score({ scenario }) {
    const judged = SCOPED.map((spec) => ({ spec, d: declared(scenario(spec)) }));
    const unseen = judged.flatMap(({ d }) => (typeof d === "string" ? [d] : []));
    const base = scenario(LOCK_STEP);
    const baseQuery = base.ran ? base.sent("query")[0] : undefined;
    const noBaseline = !base.ran
      ? "C6 is judged against the baseline: lock-step did not run, so the host's sending no query to a provider declaring unreceipted scopes cannot be told from its sending none anywhere"
      : `scenario lock-step: the host sent no query to an honest provider either (it ${describeEnding(base.ending())}), so its sending none to a provider declaring unreceipted scopes shows nothing about consent`;
    const out: Evidence[] = [];
    let refusalsUnjudged = false;
    for (const { spec, d } of judged) {
      if (typeof d === "string") continue;
      const { v, ack, offMachine } = d;
      const egress = dataFlow(ack).egress;
      const scoped: Scoped = {
        scenario: v.name,
        ack: ack.n,
        scopes: offMachine,
        ...(egress === undefined ? {} : { egress: egress as Param }),
        consent: spec.consent ? String(spec.consent) : null,
      };
      const queries = v.sent("query");
      if (queries.length > 0) {
        out.push(
          ...queries.map(({ n, env }): Evidence => {
            const goal = isObj(env.query) ? env.query.goal : undefined;
            return F.say("query-unreceipted", { ...scoped, line: n, ...(goal === undefined ? {} : { goal: goal as Param }) }, { lines: [n, ack.n] });
          }),
        );
        continue;
      }
      if (!baseQuery) {
        refusalsUnjudged = true;
        continue;
      }
      const end = v.ending();
      out.push(F.say("refused", { ...scoped, ending: endingParam(end), lock_step_query: baseQuery.n }, { lines: [ack.n, end.n, baseQuery.n] }));
      // The scopes named; in egress-scopes the contradiction named will do too, since its provider declares egress: false beside them (C5).
      const naming =
        v.output().find((e) => offMachine.some((s) => (e.line ?? "").includes(s))) ??
        (spec === EGRESS_SCOPES ? v.output().find((e) => /egress[_ ]scopes?|\bC5\b/i.test(e.line ?? "")) : undefined);
      out.push(
        naming
          ? F.say("scopes-named", { scenario: v.name, stream: naming.dir, line: naming.n, text: naming.line ?? "" }, { lines: [naming.n] })
          : F.say("scopes-unnamed", { ...scoped, printed: v.output().length }, { lines: [ack.n, end.n] }),
      );
    }
    if (out.length > 0) return out;
    return { skip: refusalsUnjudged ? noBaseline : unseen.join("; ") };
  },
});
