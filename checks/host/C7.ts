import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import {
  count,
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
import { HOST_ENV, LOCK_STEP, NON_LOOPBACK_PLAINTEXT } from "../../src/protocol/host-scenarios.ts";

/** A printed line that gives the transport as a refusal's reason. */
const TRANSPORT_REASON = /\bTLS\b|https|plain[ -]?(text|http)|unencrypted|cleartext|insecure|\bC7\b/i;

/** The provider off loopback over plain http://, and whether the host carried the run's bearer token to it. */
type Plain = { scenario: string; served: Served; token: boolean };

const F = findings({
  "plaintext-query": {
    says: (p: Plain & { line: number; goal?: Param }) =>
      `scenario ${p.scenario}, line ${p.line}: the host transmitted a query payload (goal ${show(p.goal, 60)}) over plain http:// to a provider ${servedSaid(p.served)}, which is not loopback${p.token ? ", the run's bearer token with it" : ""}: refuse plain http:// to a non-loopback provider before anything is sent, and reach it over TLS`,
    expected: () => "no query payload over an unencrypted connection to a non-loopback provider",
    actual: (p: { line: number }) => `a query at ${lineWords([p.line])}, over plain http://`,
  },
  "plaintext-requests": {
    cites: "A host's HTTP transport MUST use TLS for every non-loopback provider",
    says: (p: Plain & { requests: number[]; types: string[] }) =>
      `scenario ${p.scenario}, ${lineWords(p.requests)}: the host sent ${count(p.requests.length, "request")} (${p.types.join(", ")}) over plain http:// to a provider ${servedSaid(p.served)}, which is not loopback${p.token ? ", the run's bearer token with them" : ""}: no query payload, but a host's HTTP transport must use TLS for every non-loopback provider, a MUST of its own beside the refusal of a query payload; refuse the URL before any byte leaves`,
    expected: () => "TLS, or nothing sent",
    actual: (p: { requests: number[] }) => `${count(p.requests.length, "request")} over plain http://`,
  },
  "no-query": {
    ok: true,
    says: (p: Plain & { sent: number; ending: Ending; lock_step_query: number }) =>
      `scenario ${p.scenario}: the host sent no query payload over plain http:// to the provider ${servedSaid(p.served)}: ${p.sent === 0 ? "it sent nothing at all" : `it sent ${count(p.sent, "envelope")}, no query`}, and ${ended(p.ending)}, though it queried an honest provider in lock-step (line ${p.lock_step_query})`,
  },
  "transport-reason": {
    ok: true,
    says: (p: { scenario: string; stream: string; line: number; text: string }) =>
      `scenario ${p.scenario}: the host's ${p.stream} gives the transport as its reason at line ${p.line}: ${show(p.text, 100)}`,
  },
  "no-transport-reason": {
    cites: "MUST refuse to transmit a query payload to a non-loopback provider over an unencrypted connection",
    reading:
      "a host that refused by its consent gate sends no query here either, and no sentence asks a refusal to state its reason, so one that names no transport does not show the transport would have let the query through",
    level: "NONE",
    says: (p: { scenario: string; printed: number; ending: Ending }) =>
      `scenario ${p.scenario}: nothing the host printed (${count(p.printed, "line")}) gives the transport (TLS, https, plain http) as the reason it sent no query (it ${ended(p.ending)}, line ${p.ending.n}); told it holds a boolean consent for this provider (${HOST_ENV.consent}, {consent}), a host that did not take it refuses here by a consent gate, which the run cannot tell from C7's refusal`,
    expected: () => "a refusal that names the transport",
    actual: (p: { printed: number }) => `${count(p.printed, "line")} printed, none naming it`,
  },
});

/**
 * @anchor C7
 * Stimulus: scenario non-loopback-plaintext, whose scenario provider is
 * served on the --listen address (an address of this machine that is not
 * loopback) over plain http://, {url} being that address. It declares
 * data_flow.egress: true and no scopes, and the host is told (CGP_CONSENT
 * and {consent}: egress) that it holds a boolean consent for it: that
 * consent opens the gates of C2 and of C4 (a non-loopback provider is
 * egress, and consented), so only the transport's refusal can keep a query
 * back. And scenario lock-step (the baseline). Without --listen the scenario
 * does not run, and the check skips saying so.
 * Findings: each query the host sent there fails ("MUST refuse to transmit a
 * query payload to a non-loopback provider over an unencrypted connection"),
 * whatever lock-step shows. Anything else it sent there with no query (a
 * handshake, a verify, a shutdown, any bytes) fails too, once for the
 * scenario, naming whether the run's bearer token crossed with it: "MUST
 * use TLS for every non-loopback provider" is a MUST of its own, and a
 * handshake in plaintext (a bearer token in its request) breaks it though
 * it carries no query payload. Where a query crossed as well, the query's
 * finding is the one (one defect: the transport did not refuse the URL). A
 * host that refuses before any byte leaves, as the spec's own reference
 * host does, is what passes cleanly. Where no query was sent and the host
 * queried in lock-step, a pass.
 * Reading: a host that sent no query in lock-step either shows nothing by
 * sending none here, so that skips, as where lock-step did not run. A host
 * that did not take the consent it was given refuses here by a consent gate,
 * which the run cannot tell from C7's refusal: where nothing the host
 * printed gives the transport as its reason (TLS, https, plain http,
 * unencrypted, insecure or C7), that warns, never fails.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "C7",
  title: "The host uses TLS for a non-loopback provider, and sends it no query payload in plaintext",
  level: "MUST",
  requirement:
    "A host's HTTP transport MUST use TLS for every non-loopback provider, and MUST refuse to transmit a query payload to a non-loopback provider over an unencrypted connection.",
  scenarios: [NON_LOOPBACK_PLAINTEXT, LOCK_STEP],
  score({ scenario }) {
    const v = scenario(NON_LOOPBACK_PLAINTEXT);
    if (!v.ran) return { skip: notRun(v) };
    const at = servedAt(v);
    const sent = v.sent();
    const queries = v.sent("query");
    const token = v.lines().some((l) => l.auth === "run-token");
    const plain: Plain = { scenario: v.name, served: servedParam(v), token };
    const out: Evidence[] = queries.map(({ n, env }) => {
      const goal = isObj(env.query) ? env.query.goal : undefined;
      return F.say("plaintext-query", { ...plain, line: n, ...(goal === undefined ? {} : { goal: goal as Param }) }, { lines: [n, ...at.lines] });
    });
    const other = v.lines().filter((l) => l.env?.type !== "query");
    // One defect, one finding: where a query crossed, its finding says the transport did not refuse the URL.
    if (other.length > 0 && queries.length === 0) {
      const types = [...new Set(other.map((l) => (typeof l.env?.type === "string" ? l.env.type : "text")))];
      out.push(F.say("plaintext-requests", { ...plain, requests: other.map((l) => l.n), types }, { lines: [...other.map((l) => l.n), ...at.lines] }));
    }
    if (queries.length > 0) return out;
    const base = queriedBaseline(scenario(LOCK_STEP), "C7", "a non-loopback provider over plain http://");
    if ("skip" in base) return out.length > 0 ? out : base;
    const end = v.ending();
    out.push(
      F.say(
        "no-query",
        { ...plain, sent: sent.length, ending: endingParam(end), lock_step_query: base.query.n },
        { lines: [end.n, base.query.n, ...at.lines] },
      ),
    );
    const reason = v.output().find((e) => TRANSPORT_REASON.test(e.line ?? ""));
    out.push(
      reason
        ? F.say("transport-reason", { scenario: v.name, stream: reason.dir, line: reason.n, text: reason.line ?? "" }, { lines: [reason.n] })
        : F.say("no-transport-reason", { scenario: v.name, printed: v.output().length, ending: endingParam(end) }, { lines: [end.n] }),
    );
    return out;
  },
});
