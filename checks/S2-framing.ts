import { defineCheck, type Evidence } from "./kit/check.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { type ProbeView } from "../src/transcript/view.ts";
import { show } from "./kit/show.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { HANDSHAKE, SAMPLE_QUERY, UNKNOWN_TYPE } from "../src/protocol/probes.ts";

const PROBES = [HANDSHAKE, SAMPLE_QUERY, UNKNOWN_TYPE];

function framing(views: ProbeView[]): Evidence[] {
  const bad = views.flatMap((v) => v.nonEnvelopes());
  const total = views.reduce((a, v) => a + v.events.filter((e) => e.dir === "recv").length, 0);
  if (bad.length === 0) {
    // No line at all frames nothing: that passes no rule.
    return total === 0 ? [] : [{ ok: true, message: `all ${total} lines on stdout are single-line JSON envelopes`, lines: [] }];
  }
  return bad.slice(0, 10).map((e): Evidence => {
    const text = e.line ?? "";
    if (e.overLong) {
      // No rule caps a line's length: the cap is ours (--max-line-bytes), so this is a limit of the run, not a finding.
      return {
        ok: false,
        level: "MAY",
        message: `probe ${e.probe} line ${e.n}: a line over the line cap (${e.bytes} bytes read when it crossed it) was not read; raise --max-line-bytes to judge it`,
        lines: [e.n],
      };
    }
    const fragment = /^\s*[{}[\]]\s*$|^\s+"/.test(text);
    return {
      ok: false,
      // "An envelope MUST NOT contain a literal newline" is the MUST; "exactly one envelope per line" is stated with no keyword.
      ...(fragment ? {} : { level: "NONE" as const }),
      message: `probe ${e.probe} line ${e.n}: stdout carried ${fragment ? "a fragment of a pretty-printed (multi-line) envelope" : "text that is not a JSON envelope (a banner or log line on stdout?)"}: ${show(text, 80)}`,
      expected: fragment
        ? "one envelope per line: an envelope MUST NOT contain a literal newline"
        : "exactly one JSON envelope (an object with a string type) per line, nothing else on stdout",
      actual: show(text, 80),
      lines: [e.n],
    };
  });
}

function unknownRequest(v: ProbeView): { evidence: Evidence[]; stopped: boolean } {
  const sent = v.sent(UNKNOWN_TYPE.steps.request)[0];
  if (!sent) return { evidence: [], stopped: false };
  // Lock-step: the first reply is the answer; whether it echoes the id is H4's to judge.
  const reply = v.received(UNKNOWN_TYPE.steps.request)[0];
  const expected = 'error with code "bad_request"';
  if (reply?.env.type === "error" && reply.env.code === "bad_request") {
    return {
      evidence: [{ ok: true, message: `an unknown envelope type with an id (line ${sent.n}) got error bad_request`, lines: [sent.n, reply.n] }],
      stopped: false,
    };
  }
  const timeout = v.notes("timeout", UNKNOWN_TYPE.steps.request)[0];
  const exit = v.events.find((e) => e.note === "exit" && e.step === UNKNOWN_TYPE.steps.request && e.reason === undefined);
  // Silent on it, and on everything after it: it stopped serving because of the type, which is the rejection the MUST NOT forbids.
  const after = stimulusOutcome(v, UNKNOWN_TYPE.steps.notification, UNKNOWN_TYPE.steps.after);
  const stopped = exit !== undefined || (!reply && after?.silence !== undefined);
  const actual = reply
    ? `${show(reply.env.type)}${reply.env.code !== undefined ? ` with code ${show(reply.env.code)}` : ""}`
    : exit
      ? `the provider exited (code ${exit.exitCode}, signal ${exit.signal})`
      : `${timeout ? `no reply within ${timeout.waitedMs} ms` : "no reply"}${stopped ? `, and ${after!.silence!.why.replace(/^the following valid query/, "the valid query after it")}` : ""}`;
  return {
    evidence: [
      {
        ok: false,
        // "it replies error with code bad_request for a payload-bearing request it cannot serve" carries no keyword; rejecting the envelope (dying, or serving nothing more) breaks the MUST NOT.
        ...(stopped ? {} : { level: "NONE" as const }),
        message: `an unknown envelope type ${show(sent.env.type)} carrying id ${show(sent.env.id)} was not answered with bad_request${stopped ? "" : ", though the provider went on serving"}`,
        expected,
        actual,
        lines: [
          sent.n,
          ...(reply ? [reply.n] : []),
          ...(exit ? [exit.n] : timeout ? [timeout.n] : []),
          ...(stopped && !exit && after ? [after.silence!.line] : []),
        ],
      },
    ],
    stopped,
  };
}

function notification(v: ProbeView, transport: "stdio" | "http", stoppedBefore: boolean): Evidence[] {
  const o = stimulusOutcome(v, UNKNOWN_TYPE.steps.notification, UNKNOWN_TYPE.steps.after);
  if (!o) return [];
  const out: Evidence[] = [];
  // One cause, one finding: a provider that stopped at the unknown request says nothing about the notification.
  if (o.silence && stoppedBefore) return out;
  if (o.silence) {
    out.push({
      ok: false,
      message: `after an unknown notification (line ${o.sent.n}), ${o.silence.why}`,
      expected: "the notification is ignored and the next query answered",
      actual: o.silence.why,
      lines: [o.sent.n, o.silence.line],
    });
  } else {
    out.push({ ok: true, message: `after an unknown notification (line ${o.sent.n}) the provider answered the next query`, lines: [o.sent.n, o.answer!.n] });
  }
  // Without correlation every request arrives without an id, so an id-less envelope of an unknown type
  // cannot be told from a request the provider cannot serve: answering it bad_request is conformant.
  // Over HTTP every request body gets a response body ("one envelope as the request body, one as the response body"),
  // so only on stdio can answering a notification be told from ignoring it.
  if (o.replies.length > 0 && transport === "stdio" && capabilities(v.ack()?.env).correlation === true) {
    out.push({
      ok: false,
      // "ignores an unrecognised notification" carries no keyword; the MUST NOT is about rejecting an envelope for its type.
      level: "NONE",
      message: `an unknown notification (no id, line ${o.sent.n}) was answered by a provider that declares correlation; an unrecognised notification is ignored`,
      expected: "no reply",
      actual: o.replies.map((m) => `${show(m.env.type)} (line ${m.n})`).join(", "),
      lines: [o.sent.n, ...o.replies.map((m) => m.n)],
    });
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
    const unknown: Evidence[] = broken ? [{ ok: false, untestable: true, message: broken.message, lines: broken.lines }] : unknownTypes(u, transport);
    // Line framing is stdio's; over HTTP each body is one envelope by construction.
    const out = [...(transport === "stdio" ? framing(views) : []), ...unknown];
    if (out.length > 0) return out;
    return { skip: "no unknown envelope type was sent, and over HTTP each body is one envelope by construction" };
  },
});
