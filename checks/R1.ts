import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { afterStep, MALFORMED_INPUT, MALFORMED_STIMULI as STIMULI, UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { show } from "./kit/show.ts";
import { envelopeOf, type ProbeView } from "../src/transcript/view.ts";

function malformed(p: ProbeView): Evidence[] {
  const out: Evidence[] = [];
  for (const st of STIMULI) {
    const o = stimulusOutcome(p, st.step, afterStep(st.step));
    if (!o) continue;
    const label = `after ${st.what} (${show(o.sent.line ?? "", 60)}, line ${o.sent.n})`;
    if (o.silence) {
      out.push({
        ok: false,
        message: `${label}, ${o.silence.why}`,
        expected: "the provider stays alive and answers the next valid query",
        actual: o.silence.why,
        lines: [o.sent.n, o.silence.line],
      });
      break;
    }
    const lines = [o.sent.n, ...o.replies.map((m) => m.n), o.answer!.n];
    out.push({ ok: true, message: `${label}, the provider answered the next valid query (line ${o.answer!.n})`, lines });
    // An object with neither type nor id may be a notification, which §2 says is ignored: the SHOULD does not bind it.
    if (!st.reply) continue;
    // A correlating provider may answer out of order: a bad_request echoing the stimulus's id counts wherever it came.
    const id = envelopeOf(o.sent)?.id;
    const named =
      o.replies.find((m) => m.env.type === "error" && m.env.code === "bad_request") ??
      (id !== undefined ? p.received().find((m) => m.n > o.sent.n && m.env.id === id && m.env.type === "error" && m.env.code === "bad_request") : undefined);
    out.push(
      named
        ? { ok: true, message: `${label}, the provider replied error bad_request`, lines: [o.sent.n, named.n] }
        : {
            ok: false,
            level: "SHOULD",
            message: `${label}, the provider did not reply error bad_request`,
            expected: 'an error envelope with code "bad_request"',
            actual:
              o.replies.length === 0
                ? "no reply"
                : o.replies.map((m) => `${show(m.env.type)}${m.env.code !== undefined ? ` code ${show(m.env.code)}` : ""} (line ${m.n})`).join(", "),
            lines,
          },
    );
  }
  return out;
}

/** A query for a kind no revision defines is a request the provider may refuse; dying on it is a crash on a bad request. */
function unknownKind(p: ProbeView): Evidence[] {
  const steps = UNKNOWN_KIND_PROBE.steps;
  const last = p.sent(steps.mixed).length > 0 ? steps.mixed : steps.unknown;
  const o = stimulusOutcome(p, last, steps.after);
  if (!o) return [];
  if (o.silence)
    return [
      {
        ok: false,
        message: `after a query for the unknown kind ${UNKNOWN_KIND} (line ${o.sent.n}), ${o.silence.why}`,
        expected: "the provider stays alive",
        actual: o.silence.why,
        lines: [o.sent.n, o.silence.line],
      },
    ];
  return [
    {
      ok: true,
      message: `after a query for the unknown kind ${UNKNOWN_KIND}, the provider answered the next query (line ${o.answer!.n})`,
      lines: [o.answer!.n],
    },
  ];
}

/**
 * @anchor R1
 * Stimulus: probe malformed-input: each of its malformed lines and bad
 * requests (a line that is not JSON, {}, a JSON array, a query with no query
 * member, one with wrong member types; request-shaped ones with an id to a
 * correlating provider, plus a typeless request with an id), each
 * chased by a valid query; and probe unknown-kind, whose query for a kind no
 * revision defines must not kill the provider either.
 * Readings: an object with neither type nor id ({}) may be a notification,
 * which §2 says is ignored, so R1's SHOULD (reply bad_request) does not bind
 * it; only survival does. A query for an unknown kind counts as a request the
 * provider may find bad: dying on it fails, any answer passes (Q1 judges the answer).
 */
export default defineCheck({
  id: "R1",
  title: "Provider survives malformed lines and bad requests",
  level: "MUST",
  requirement: "A provider MUST NOT crash on a malformed line or bad request. It SHOULD reply error with code bad_request.",
  probes: [MALFORMED_INPUT, UNKNOWN_KIND_PROBE],
  score({ probe }) {
    const p = probe(MALFORMED_INPUT);
    const out = [...malformed(p), ...unknownKind(probe(UNKNOWN_KIND_PROBE))];
    return out.length > 0 ? out : notSent(p.name, "malformed input");
  },
});
