import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { type ProbeView } from "../src/transcript/view.ts";
import { show } from "./kit/show.ts";

function judged(p: ProbeView, step: string): Evidence | undefined {
  const sent = p.sent(step)[0];
  if (!sent) return undefined;
  const what = `kinds ${show((sent.env.query as { kinds: unknown }).kinds)} (line ${sent.n})`;
  const reply = p.answer(step, ["frames", "error"]);
  if (!reply) {
    const s = p.silence(step);
    return { ok: false, message: `${what} got no answer: ${s.why}`, expected: "frames, or error unsupported_kind", actual: s.why, lines: [sent.n, ...s.lines] };
  }
  const lines = [sent.n, reply.n];
  if (reply.env.type === "frames" || reply.env.code === "unsupported_kind") {
    return { ok: true, message: `${what} answered with ${reply.env.type === "frames" ? "frames" : "unsupported_kind"}`, lines };
  }
  return {
    ok: false,
    message: `${what} answered with error ${show(reply.env.code)}`,
    expected: "frames, or error unsupported_kind",
    actual: `error ${show(reply.env.code)}`,
    lines,
  };
}

/**
 * @anchor U2
 * Stimulus: probe unknown-kind: kinds ["acme:diagram"], then that kind beside
 * a declared one, then a valid query.
 */
export default defineCheck({
  id: "U2",
  title: "An unknown kind is neither a crash nor an error",
  level: "MUST",
  requirement:
    "New open vocabularies (rel, error code, egress_scope) grow without a version bump; a receiver MUST NOT reject an unknown value in any of them. [A provider asked for a kind it does not serve] returns zero frames, or replies unsupported_kind (Q1).",
  probes: [UNKNOWN_KIND_PROBE],
  score({ probe }) {
    const p = probe(UNKNOWN_KIND_PROBE);
    const out = [UNKNOWN_KIND_PROBE.steps.unknown, UNKNOWN_KIND_PROBE.steps.mixed].map((s) => judged(p, s)).filter((e): e is Evidence => e !== undefined);
    const last = p.sent(UNKNOWN_KIND_PROBE.steps.mixed).length > 0 ? UNKNOWN_KIND_PROBE.steps.mixed : UNKNOWN_KIND_PROBE.steps.unknown;
    const o = stimulusOutcome(p, last, UNKNOWN_KIND_PROBE.steps.after);
    if (o?.silence)
      out.push({
        ok: false,
        message: `after a query for the unknown kind ${UNKNOWN_KIND}, ${o.silence.why}`,
        expected: "the provider stays alive",
        actual: o.silence.why,
        lines: [o.sent.n, o.silence.line],
      });
    else if (o?.answer) out.push({ ok: true, message: `the provider answered the next query (line ${o.answer.n})`, lines: [o.answer.n] });
    return out.length > 0 ? out : notSent(p.name, `query for the unknown kind ${UNKNOWN_KIND}`);
  },
});
