/**
 * Small helpers the host checks share: transcript lines in words, what a
 * scenario provider's ack declared, and how a host's ending compares with
 * another's. Pure, like the checks.
 */
import { capabilities } from "../../src/protocol/caps.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { describeEnding, type HostEnding, type HostEnvelope, type HostView } from "../../src/transcript/host.ts";
import type { Evidence } from "./check.ts";
import { findings } from "./findings.ts";

/** "line 4", "lines 4, 6, 8", "lines 2–19": transcript lines for evidence text (the evidence's `lines` holds each one). */
export function lineWords(ns: readonly number[]): string {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  if (sorted.length === 0) return "no line";
  if (sorted.length === 1) return `line ${sorted[0]}`;
  if (sorted.length <= 4) return `lines ${sorted.join(", ")}`;
  return `lines ${sorted[0]}–${sorted[sorted.length - 1]}`;
}

/** "1 query", "3 queries". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the scenario provider's handshake_ack declared under capabilities ({} when it sent no ack). */
export function ackCapabilities(v: HostView): Obj {
  return capabilities(v.ack()?.env);
}

/** The ack's provider.data_flow ({} when absent). */
export function dataFlow(ack: HostEnvelope | undefined): Obj {
  const p = isObj(ack?.env.provider) ? ack.env.provider : undefined;
  return isObj(p?.data_flow) ? p.data_flow : {};
}

/** Whether an envelope the host sent came after the scenario provider's ack (false when there was none). */
export function afterAck(v: HostView, e: { n: number }): boolean {
  const ack = v.ack();
  return ack !== undefined && e.n > ack.n;
}

/** The ack, in words, for evidence: "its handshake_ack (line 3)". */
export function ackWords(v: HostView): string {
  const ack = v.ack();
  return ack ? `its handshake_ack (line ${ack.n})` : "no handshake_ack";
}

/**
 * An ending's class, for comparing two scenarios: the exit status, or the way
 * it did not exit. Two crashes are alike whatever the signal; two hangs alike
 * whatever the wait.
 */
export function endingClass(e: HostEnding): string {
  switch (e.kind) {
    case "exit":
      return `exit ${e.code}`;
    case "signal":
      return "signal";
    default:
      return e.kind;
  }
}

/** Everything the host printed on its own stdout and stderr, across views. */
export function printed(views: readonly HostView[]): number {
  return views.reduce((a, v) => a + v.output().length, 0);
}

/** An ending as a param: how the host ended and at which line (the time left out; keys snake_case, as the report's are). */
type Timed = HostEnding extends infer E ? (E extends HostEnding ? Omit<E, "t"> : never) : never;
export type Ending = Exclude<Timed, { kind: "hang" }> | { kind: "hang"; waited_ms: number; n: number; no_contact?: true };
export function endingParam(e: HostEnding): Ending {
  if (e.kind === "hang") return { kind: "hang", waited_ms: e.waitedMs, n: e.n, ...(e.noContact ? { no_contact: true as const } : {}) };
  const { t: _, ...rest } = e;
  return rest as Ending;
}
/** An ending param in words: "exited with status 1". */
export const ended = (e: Ending): string =>
  describeEnding(
    e.kind === "hang"
      ? { kind: "hang", waitedMs: e.waited_ms, n: e.n, t: 0, ...(e.no_contact ? { noContact: true as const } : {}) }
      : ({ ...e, t: 0 } as HostEnding),
  );

/** Two endings compared: the scenario's and its baseline's, and what alone tells them apart (in words the check gives). */
export type EndingsParams = { scenario: string; baseline: string; difference: string; ending: Ending; baseline_ending: Ending };

/** The words of sameEnding's two findings, for a check that says them with more of its own. */
export const endingWords = {
  alike: (p: EndingsParams): string =>
    `scenario ${p.scenario}: the host ${ended(p.ending)} (line ${p.ending.n}), as in ${p.baseline} (line ${p.baseline_ending.n})`,
  differs: (p: EndingsParams): string =>
    `scenario ${p.scenario}: the host ${ended(p.ending)} (line ${p.ending.n}), but in ${p.baseline}, identical but for ${p.difference}, it ${ended(p.baseline_ending)} (line ${p.baseline_ending.n})`,
  expected: (p: EndingsParams): string => `as in ${p.baseline}: ${ended(p.baseline_ending)}`,
  actual: (p: EndingsParams): string => ended(p.ending),
};

/** Queries counted against the internal baseline's, in words: "3 queries (lines 4, 6, 8)". */
type Reaction = {
  scenario: string;
  stimulus: string;
  what: string;
  sent: number;
  queries: number[];
  internal_sent: number;
  internal_queries: number[];
};
const queriesWords = (lines: readonly number[]): string => `${count(lines.length, "query", "queries")} (${lineWords(lines)})`;

/** The findings of the differentials here: a check that uses them declares this table beside its own. */
export const differentials = findings({
  "ending-alike": { ok: true, says: endingWords.alike },
  "ending-differs": { says: endingWords.differs, expected: endingWords.expected, actual: endingWords.actual },
  "retried-unlike-internal": {
    says: (p: Reaction) =>
      `scenario ${p.scenario}: ${p.stimulus}, the host retried, sending ${queriesWords(p.queries)}, though answered internal it sent ${queriesWords(p.internal_queries)}: a host must never infer "safe to retry" from ${p.what}; treat it as internal`,
    expected: (p: Reaction) => `as after internal: ${queriesWords(p.internal_queries)}`,
    actual: (p: Reaction) => queriesWords(p.queries),
  },
  "gave-up-unlike-internal": {
    says: (p: Reaction) =>
      `scenario ${p.scenario}: ${p.stimulus}, the host sent ${queriesWords(p.queries)} and gave up, though answered internal it retried, sending ${queriesWords(p.internal_queries)}: it treats ${p.what} as some code other than internal`,
    expected: (p: Reaction) => `as after internal: ${queriesWords(p.internal_queries)}`,
    actual: (p: Reaction) => queriesWords(p.queries),
  },
  "retried-otherwise": {
    level: "NONE",
    reading:
      "a retry loop bound by a deadline or a backoff can send a different number of queries by timing alone, so counts that differ do not show the error was treated otherwise than internal",
    says: (p: Reaction) =>
      `scenario ${p.scenario}: ${p.stimulus}, the host sent ${queriesWords(p.queries)}, and answered internal ${queriesWords(p.internal_queries)}: it retried in both, but not alike (a retry loop bound by time may differ by timing alone)`,
    expected: (p: Reaction) => `as after internal: ${queriesWords(p.internal_queries)}`,
    actual: (p: Reaction) => queriesWords(p.queries),
  },
  "as-internal": {
    ok: true,
    says: (p: Reaction) =>
      `scenario ${p.scenario}: ${p.stimulus}, the host sent ${queriesWords(p.queries)}, as it sent ${queriesWords(p.internal_queries)} answered internal`,
  },
});

/** The params of two endings compared. */
export function endingsParams(baseline: HostView, v: HostView, difference: string): EndingsParams {
  return { scenario: v.name, baseline: baseline.name, difference, ending: endingParam(v.ending()), baseline_ending: endingParam(baseline.ending()) };
}

/**
 * The differential at the heart of U1, U2 and X1: two scenarios identical but
 * for one thing, and how the host ended in each. Alike (same kind, same exit
 * status) passes; otherwise a finding at the check's level, naming both.
 */
export function sameEnding(baseline: HostView, v: HostView, difference: string): Evidence {
  const a = baseline.ending();
  const b = v.ending();
  const lines = [a.n, b.n];
  return differentials.say(endingClass(a) === endingClass(b) ? "ending-alike" : "ending-differs", endingsParams(baseline, v, difference), { lines });
}

/**
 * X1 and X2: a host answered with some error (`stimulus`, in words) must react
 * as it reacts to internal, the code it must be treated as. Compared with the
 * error-internal scenario: whether it retried, how many queries it sent, how
 * it ended.
 */
export function reactsAsInternal(internal: HostView, other: HostView, stimulus: string, what: string): Evidence[] | { skip: string } {
  if (!internal.ran || !other.ran) return { skip: `this is judged against the baseline: ${internal.ran ? other.name : internal.name} did not run` };
  const qi = internal.sent("query");
  const qu = other.sent("query");
  if (qi.length === 0) {
    return {
      skip: `scenario ${internal.name}: the host sent no query (it ${describeEnding(internal.ending())}), so it never got to the error its reaction to ${what} is compared with`,
    };
  }
  if (qu.length === 0) return { skip: `scenario ${other.name}: the host sent no query (it ${describeEnding(other.ending())}), so ${what} never reached it` };
  const lines = [...qi.map((q) => q.n), ...qu.map((q) => q.n)];
  const p: Reaction = {
    scenario: other.name,
    stimulus,
    what,
    sent: qu.length,
    queries: qu.map((q) => q.n),
    internal_sent: qi.length,
    internal_queries: qi.map((q) => q.n),
  };
  const out: Evidence[] = [];
  const retriedI = qi.length > 1;
  const retriedU = qu.length > 1;
  if (retriedU !== retriedI) out.push(differentials.say(retriedU ? "retried-unlike-internal" : "gave-up-unlike-internal", p, { lines }));
  else if (qu.length !== qi.length) out.push(differentials.say("retried-otherwise", p, { lines }));
  else out.push(differentials.say("as-internal", p, { lines }));
  out.push(sameEnding(internal, other, `the error (${what} here, internal there)`));
  return out;
}

/** Why a scenario the check reads did not run, from its record: for a scenario that needs --listen, the one line that says how to enable it. */
export function notRun(v: HostView): string {
  return `scenario ${v.name} did not run: ${v.record?.skipped ?? "it was not selected"}`;
}

/** Where the scenario provider was served off loopback, in words, with the note's line ("on http://192.0.2.1:40311/ (line 2)"). */
export function servedAt(v: HostView): { words: string; lines: number[] } {
  const note = v.notes("listening")[0];
  return note?.url ? { words: `on ${note.url} (line ${note.n})`, lines: [note.n] } : { words: "on the --listen address", lines: [] };
}

/** Where the scenario provider was served off loopback, as a param: the note's URL and line (null: the run noted none). */
export type Served = { url: string | null; line: number | null };
export function servedParam(v: HostView): Served {
  const note = v.notes("listening")[0];
  return note?.url ? { url: note.url, line: note.n } : { url: null, line: null };
}
/** The same in words: "on http://192.0.2.1:40311/ (line 2)". */
export const servedSaid = (p: Served): string => (p.url !== null ? `on ${p.url} (line ${p.line})` : "on the --listen address");

/**
 * The lock-step baseline of a refusal: a host that sends nothing where a rule
 * forbids it shows the rule honoured only if it queries where nothing does.
 * Its first query there, or why the refusal shows nothing.
 */
export function queriedBaseline(base: HostView, anchor: string, what: string): { query: HostEnvelope } | { skip: string } {
  if (!base.ran)
    return {
      skip: `${anchor} is judged against the baseline: lock-step did not run, so the host's sending no query to ${what} cannot be told from its sending none anywhere`,
    };
  const query = base.sent("query")[0];
  if (!query)
    return {
      skip: `scenario lock-step: the host sent no query to an honest provider either (it ${describeEnding(base.ending())}), so its sending none to ${what} shows nothing`,
    };
  return { query };
}
