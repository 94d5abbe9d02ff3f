import { defineCheck, type Evidence } from "./kit/check.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { type ProbeView } from "../src/transcript/view.ts";
import { common } from "./kit/common-findings.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { HANDSHAKE, SAMPLE_QUERY, UNKNOWN_TYPE } from "../src/protocol/probes.ts";

const PROBES = [HANDSHAKE, SAMPLE_QUERY, UNKNOWN_TYPE];

/** A line read from stdout: its probe, its transcript line, and its text as read (what tells one defect from another). */
type Read = { probe: string; line: number; text: string };

/** What an unknown request with an id got instead of bad_request; `then` is how the valid query after it went unanswered, if it did. */
type Outcome =
  | { kind: "reply"; type: Param; code?: Param }
  | { kind: "exit"; exit_code: Param; signal: Param }
  | { kind: "silence"; timed_out: boolean; waited_ms?: number; then: string | null };

function outcomeWords(o: Outcome): string {
  switch (o.kind) {
    case "reply":
      return `${show(o.type)}${o.code !== undefined ? ` with code ${show(o.code)}` : ""}`;
    case "exit":
      return `the provider exited (code ${o.exit_code}, signal ${o.signal})`;
    case "silence":
      return `${o.timed_out ? `no reply within ${o.waited_ms} ms` : "no reply"}${o.then !== null ? `, and ${o.then.replace(/^the following valid query/, "the valid query after it")}` : ""}`;
  }
}

type Unserved = { type: Param; id: Param; outcome: Outcome };
const unservedWords = (p: Unserved, stopped: boolean): string =>
  `an unknown envelope type ${show(p.type)} carrying id ${show(p.id)} was not answered with bad_request${stopped ? "" : ", though the provider went on serving"}`;
const UNSERVED_EXPECTED = 'error with code "bad_request"';

const F = findings({
  "single-line": { ok: true, says: (p: { total: number }) => `all ${p.total} lines on stdout are single-line JSON envelopes` },
  /** No rule caps a line's length: the cap is ours (--max-line-bytes), so this is a limit of the run, not a finding. */
  "over-long": {
    cites: "exactly one envelope per line, newline-delimited (NDJSON)",
    reading: "a line over the run's cap was not read: the cap is the run's own limit, and what the line held is not known",
    level: "MAY",
    says: (p: { probe: string; line: number; bytes: Param }) =>
      `probe ${p.probe} line ${p.line}: a line over the line cap (${p.bytes} bytes read when it crossed it) was not read; raise --max-line-bytes to judge it`,
  },
  /** "An envelope MUST NOT contain a literal newline" is the MUST. */
  fragment: {
    apart: ["text"],
    says: (p: Read) => `probe ${p.probe} line ${p.line}: stdout carried a fragment of a pretty-printed (multi-line) envelope: ${show(p.text, 80)}`,
    expected: () => "one envelope per line: an envelope MUST NOT contain a literal newline",
    actual: (p: Read) => show(p.text, 80),
  },
  /** "exactly one envelope per line" is stated with no keyword. */
  "not-envelope": {
    cites: "exactly one envelope per line, newline-delimited (NDJSON)",
    level: "NONE",
    apart: ["text"],
    says: (p: Read) =>
      `probe ${p.probe} line ${p.line}: stdout carried text that is not a JSON envelope (a banner or log line on stdout?): ${show(p.text, 80)}`,
    expected: () => "exactly one JSON envelope (an object with a string type) per line, nothing else on stdout",
    actual: (p: Read) => show(p.text, 80),
  },
  "bad-request": { ok: true, says: (p: { line: number }) => `an unknown envelope type with an id (line ${p.line}) got error bad_request` },
  /** Dying on an unknown type, or serving nothing after it, is rejecting it: the MUST NOT. */
  "rejected-type": {
    apart: ["outcome"],
    says: (p: Unserved) => unservedWords(p, true),
    expected: () => UNSERVED_EXPECTED,
    actual: (p: Unserved) => outcomeWords(p.outcome),
  },
  /** "it replies error with code bad_request for a payload-bearing request it cannot serve" carries no keyword. */
  "not-bad-request": {
    cites: "it replies error with code bad_request for a payload-bearing request it cannot serve",
    level: "NONE",
    says: (p: Unserved) => unservedWords(p, false),
    expected: () => UNSERVED_EXPECTED,
    actual: (p: Unserved) => outcomeWords(p.outcome),
  },
  "notification-stopped": {
    says: (p: { line: number; why: string }) => `after an unknown notification (line ${p.line}), ${p.why}`,
    expected: () => "the notification is ignored and the next query answered",
    actual: (p: { why: string }) => p.why,
  },
  "notification-ignored": { ok: true, says: (p: { line: number }) => `after an unknown notification (line ${p.line}) the provider answered the next query` },
  /** "ignores an unrecognised notification" carries no keyword; the MUST NOT is about rejecting an envelope for its type. */
  "notification-answered": {
    cites: "and ignores an unrecognised notification",
    level: "NONE",
    says: (p: { line: number; replies: { type: Param; line: number }[] }) =>
      `an unknown notification (no id, line ${p.line}) was answered by a provider that declares correlation; an unrecognised notification is ignored`,
    expected: () => "no reply",
    actual: (p: { replies: { type: Param; line: number }[] }) => p.replies.map((m) => `${show(m.type)} (line ${m.line})`).join(", "),
  },
});

function framing(views: ProbeView[]): Evidence[] {
  const bad = views.flatMap((v) => v.nonEnvelopes());
  const total = views.reduce((a, v) => a + v.events.filter((e) => e.dir === "recv").length, 0);
  if (bad.length === 0) {
    // No line at all frames nothing: that passes no rule.
    return total === 0 ? [] : [F.say("single-line", { total }, { lines: [] })];
  }
  return bad.slice(0, 10).map((e): Evidence => {
    const text = e.line ?? "";
    if (e.overLong) return F.say("over-long", { probe: e.probe, line: e.n, bytes: e.bytes as Param }, { lines: [e.n] });
    const fragment = /^\s*[{}[\]]\s*$|^\s+"/.test(text);
    return F.say(fragment ? "fragment" : "not-envelope", { probe: e.probe, line: e.n, text }, { lines: [e.n] });
  });
}

function unknownRequest(v: ProbeView): { evidence: Evidence[]; stopped: boolean } {
  const sent = v.sent(UNKNOWN_TYPE.steps.request)[0];
  if (!sent) return { evidence: [], stopped: false };
  // The reply the session paired with it (by id, or by order where the id was dropped: H4 judges the id); in a transcript
  // from before the session paired replies, the first reply in its step.
  const reply = v.paired ? v.repliesTo(sent)[0] : v.received(UNKNOWN_TYPE.steps.request)[0];
  if (reply?.env.type === "error" && reply.env.code === "bad_request") {
    return { evidence: [F.say("bad-request", { line: sent.n }, { lines: [sent.n, reply.n] })], stopped: false };
  }
  const timeout = v.notes("timeout", UNKNOWN_TYPE.steps.request)[0];
  // Chased by a query of its own (since the session paired replies), the request's outcome is that query's; before, the notification's.
  const chased = v.sent(UNKNOWN_TYPE.steps.afterRequest).length > 0;
  const after = chased
    ? stimulusOutcome(v, UNKNOWN_TYPE.steps.request, UNKNOWN_TYPE.steps.afterRequest)
    : stimulusOutcome(v, UNKNOWN_TYPE.steps.notification, UNKNOWN_TYPE.steps.after);
  const exitAt = chased && after?.silence ? v.events.find((e) => e.n === after.silence!.line && e.note === "exit" && e.reason === undefined) : undefined;
  const exit = exitAt ?? v.events.find((e) => e.note === "exit" && e.step === UNKNOWN_TYPE.steps.request && e.reason === undefined);
  // Silent on it, and on everything after it: it stopped serving because of the type, which is the rejection the MUST NOT forbids.
  const stopped = exit !== undefined || (!reply && after?.silence !== undefined);
  const outcome: Outcome = reply
    ? { kind: "reply", type: reply.env.type as Param, code: reply.env.code as Param }
    : exit
      ? { kind: "exit", exit_code: exit.exitCode as Param, signal: exit.signal as Param }
      : { kind: "silence", timed_out: timeout !== undefined, waited_ms: timeout?.waitedMs, then: stopped ? after!.silence!.why : null };
  const lines = [
    sent.n,
    ...(reply ? [reply.n] : []),
    ...(exit ? [exit.n] : timeout ? [timeout.n] : []),
    ...(stopped && !exit && after ? [after.silence!.line] : []),
  ];
  // "it replies error with code bad_request for a payload-bearing request it cannot serve" carries no keyword; rejecting the envelope (dying, or serving nothing more) breaks the MUST NOT.
  const p: Unserved = { type: sent.env.type as Param, id: sent.env.id as Param, outcome };
  return { evidence: [F.say(stopped ? "rejected-type" : "not-bad-request", p, { lines })], stopped };
}

function notification(v: ProbeView, transport: "stdio" | "http", stoppedBefore: boolean): Evidence[] {
  const o = stimulusOutcome(v, UNKNOWN_TYPE.steps.notification, UNKNOWN_TYPE.steps.after);
  if (!o) return [];
  const out: Evidence[] = [];
  // One cause, one finding: a provider that stopped at the unknown request says nothing about the notification.
  if (o.silence && stoppedBefore) return out;
  if (o.silence) {
    out.push(F.say("notification-stopped", { line: o.sent.n, why: o.silence.why }, { lines: [o.sent.n, o.silence.line] }));
  } else {
    out.push(F.say("notification-ignored", { line: o.sent.n }, { lines: [o.sent.n, o.answer!.n] }));
  }
  // Without correlation every request arrives without an id, so an id-less envelope of an unknown type
  // cannot be told from a request the provider cannot serve: answering it bad_request is conformant.
  // Over HTTP every request body gets a response body ("one envelope as the request body, one as the response body"),
  // so only on stdio can answering a notification be told from ignoring it.
  if (o.replies.length > 0 && transport === "stdio" && capabilities(v.ack()?.env).correlation === true) {
    out.push(
      F.say(
        "notification-answered",
        { line: o.sent.n, replies: o.replies.map((m) => ({ type: m.env.type as Param, line: m.n })) },
        { lines: [o.sent.n, ...o.replies.map((m) => m.n)] },
      ),
    );
  }
  return out;
}

function unknownTypes(u: ProbeView, transport: "stdio" | "http"): Evidence[] {
  const request = unknownRequest(u);
  return [...request.evidence, ...notification(u, transport, request.stopped)];
}

/**
 * @section 2 (no anchor number)
 * Stimulus: every line read in probes handshake, sample-query and
 * unknown-type; an unknown envelope type with an id (when correlation is
 * declared) and one without.
 * Readings: a literal newline inside an envelope (a pretty-printed one)
 * fails: "An envelope MUST NOT contain a literal newline". Other text on
 * stdout (a banner, a log line) warns: "exactly one envelope per line" is
 * stated with no keyword. A line longer than the run's cap is informational:
 * the cap is the tool's, not a rule.
 * The MUST NOT is about rejecting an envelope for its type: a provider that
 * dies on an unknown type, or serves nothing after it, fails. What the
 * sentence goes on to say a receiver does instead carries no keyword: an
 * unknown request (it carries an id) answered otherwise than with error
 * bad_request, or left unanswered while the provider goes on serving, warns,
 * and so does an answer to an unknown notification.
 * "ignores an unrecognised notification" is held only against a
 * provider that declares capabilities.correlation. A lock-step provider gets
 * every request without an id, so to it an id-less envelope is as much a
 * request it cannot serve as a notification: any answer, or none, is
 * conformant, as long as it answers the next query. Over HTTP the binding
 * gives every request body a response body, so there it is not judged either.
 */
export default defineCheck({
  findings: F.table,
  id: "S2-framing",
  title: "Provider frames one envelope per line and tolerates unknown types",
  level: "MUST",
  requirement:
    "stdio: exactly one envelope per line, newline-delimited (NDJSON). An envelope MUST NOT contain a literal newline. " +
    "[…] a receiver MUST NOT reject an envelope solely because its type is one it does not implement — it replies error with code " +
    "bad_request for a payload-bearing request it cannot serve, and ignores an unrecognised notification.",
  probes: PROBES,
  // Output that is not an envelope is a framing finding even when it is all the provider said.
  scoresHandshake: true,
  score({ probe, transport }) {
    const views = PROBES.map(probe);
    const u = probe(UNKNOWN_TYPE);
    // Unknown types are judged only where the unknown-type probe ran: a session that never got its handshake
    // (or got it after giving up on it) sent no unknown type, and that half of the rule was not observed.
    const broken = u.brokenPrecondition(true);
    const unknown: Evidence[] = broken ? [common.say("not-observed", { why: broken.message }, { lines: broken.lines })] : unknownTypes(u, transport);
    // Line framing is stdio's; over HTTP each body is one envelope by construction.
    const out = [...(transport === "stdio" ? framing(views) : []), ...unknown];
    if (out.length > 0) return out;
    return { skip: "no unknown envelope type was sent, and over HTTP each body is one envelope by construction" };
  },
});
