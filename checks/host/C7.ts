import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, lineWords, notRun, queriedBaseline, servedAt } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { HOST_ENV, LOCK_STEP, NON_LOOPBACK_PLAINTEXT } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

/** A printed line that gives the transport as a refusal's reason. */
const TRANSPORT_REASON = /\bTLS\b|https|plain[ -]?(text|http)|unencrypted|cleartext|insecure|\bC7\b/i;

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
 * whatever lock-step shows. Anything else it sent there (a handshake, a
 * verify, a shutdown) carries no query payload. The first clause ("MUST use
 * TLS for every non-loopback provider") read alone forbids those bytes too;
 * read with the second, which names what must be refused, it binds the use
 * of the provider. So they warn, once for the scenario, naming whether the
 * run's bearer token crossed with them, and never fail. A host that refuses
 * before any byte leaves, as the spec's own reference host does, is what
 * passes cleanly. Where no query was sent and the host queried in
 * lock-step, a pass.
 * Reading: a host that sent no query in lock-step either shows nothing by
 * sending none here, so that skips, as where lock-step did not run. A host
 * that did not take the consent it was given refuses here by a consent gate,
 * which the run cannot tell from C7's refusal: where nothing the host
 * printed gives the transport as its reason (TLS, https, plain http,
 * unencrypted, insecure or C7), that warns, never fails.
 */
export default defineHostCheck({
  anchor: "C7",
  title: "The host sends no query payload in plaintext to a non-loopback provider",
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
    const out: Evidence[] = queries.map(({ n, env }) => ({
      ok: false,
      message: `scenario ${v.name}, line ${n}: the host transmitted a query payload (goal ${show(isObj(env.query) ? env.query.goal : undefined, 60)}) over plain http:// to a provider ${at.words}, which is not loopback${token ? ", the run's bearer token with it" : ""}: refuse plain http:// to a non-loopback provider before anything is sent, and reach it over TLS`,
      expected: "no query payload over an unencrypted connection to a non-loopback provider",
      actual: `a query at ${lineWords([n])}, over plain http://`,
      lines: [n, ...at.lines],
    }));
    const other = v.lines().filter((l) => l.env?.type !== "query");
    if (other.length > 0) {
      const types = [...new Set(other.map((l) => (typeof l.env?.type === "string" ? l.env.type : "text")))].join(", ");
      out.push({
        ok: false,
        level: "NONE",
        message: `scenario ${v.name}, ${lineWords(other.map((l) => l.n))}: the host sent ${count(other.length, "request")} (${types}) over plain http:// to a provider ${at.words}, which is not loopback${token ? ", the run's bearer token with them" : ""}: no query payload, but C7 asks for TLS for every non-loopback provider; refuse the URL before any byte leaves`,
        expected: "TLS, or nothing sent",
        actual: `${count(other.length, "request")} over plain http://`,
        lines: [...other.map((l) => l.n), ...at.lines],
      });
    }
    if (queries.length > 0) return out;
    const base = queriedBaseline(scenario(LOCK_STEP), "C7", "a non-loopback provider over plain http://");
    if ("skip" in base) return out.length > 0 ? out : base;
    const end = v.ending();
    out.push({
      ok: true,
      message: `scenario ${v.name}: the host sent no query payload over plain http:// to the provider ${at.words}: ${sent.length === 0 ? "it sent nothing at all" : `it sent ${count(sent.length, "envelope")}, no query`}, and ${describeEnding(end)}, though it queried an honest provider in lock-step (line ${base.query.n})`,
      lines: [end.n, base.query.n, ...at.lines],
    });
    const reason = v.output().find((e) => TRANSPORT_REASON.test(e.line ?? ""));
    out.push(
      reason
        ? {
            ok: true,
            message: `scenario ${v.name}: the host's ${reason.dir} gives the transport as its reason at line ${reason.n}: ${show(reason.line, 100)}`,
            lines: [reason.n],
          }
        : {
            ok: false,
            level: "NONE",
            message: `scenario ${v.name}: nothing the host printed (${count(v.output().length, "line")}) gives the transport (TLS, https, plain http) as the reason it sent no query (it ${describeEnding(end)}, line ${end.n}); told it holds a boolean consent for this provider (${HOST_ENV.consent}, {consent}), a host that did not take it refuses here by a consent gate, which the run cannot tell from C7's refusal`,
            expected: "a refusal that names the transport",
            actual: `${count(v.output().length, "line")} printed, none naming it`,
            lines: [end.n],
          },
    );
    return out;
  },
});
