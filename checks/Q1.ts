import { defineCheck, type Evidence } from "./kit/check.ts";
import { declaredKinds } from "../src/protocol/caps.ts";
import { KINDS_QUERY, kindStep } from "../src/protocol/probes.ts";
import { type Message, type ProbeView } from "../src/transcript/view.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";

function narrowed(p: ProbeView, step: string, kind: string): Evidence | undefined {
  const sent = p.sent(step)[0];
  if (!sent) return undefined;
  const reply = p.answer(step, ["frames", "error"]);
  if (!reply) {
    const s = p.silence(step);
    return { ok: false, untestable: true, message: `query for kinds ["${kind}"] (line ${sent.n}) got no answer: ${s.why}`, lines: [sent.n, ...s.lines] };
  }
  return judge(sent, reply, kind);
}

function judge(sent: Message, reply: Message, kind: string): Evidence {
  const lines = [sent.n, reply.n];
  if (reply.env.type === "error") {
    return reply.env.code === "unsupported_kind"
      ? { ok: true, message: `kinds ["${kind}"] answered with unsupported_kind`, lines }
      : {
          ok: false,
          message: `kinds ["${kind}"] answered with error ${show(reply.env.code)}`,
          expected: `frames of kind "${kind}", or error unsupported_kind`,
          actual: `error ${show(reply.env.code)}`,
          lines,
        };
  }
  const frames = framesIn(reply.env);
  const outside = frames.filter((f) => f.kind !== kind);
  return outside.length === 0
    ? { ok: true, message: `kinds ["${kind}"]: ${frames.length} frames, all of kind "${kind}"`, lines }
    : {
        ok: false,
        message: `kinds ["${kind}"] returned ${outside.length} frame${outside.length > 1 ? "s" : ""} of another kind: ${outside
          .slice(0, 5)
          .map((f) => `${show(f.id)} (${show(f.kind)})`)
          .join(", ")}`,
        expected: `only frames of kind "${kind}"`,
        actual: `kinds ${show([...new Set(frames.map((f) => f.kind))])}`,
        lines,
      };
}

/**
 * @anchor Q1
 * Stimulus: probe kinds-query: kinds [k] for each declared kind, then a base
 * kind the provider does not declare.
 */
export default defineCheck({
  id: "Q1",
  title: "A kinds filter returns only those kinds",
  level: "MUST",
  requirement:
    "When kinds is non-empty, a provider MUST NOT return a frame whose kind is outside it. Empty kinds means any kind. A provider serving none of the requested kinds returns zero frames, or replies unsupported_kind.",
  probes: [KINDS_QUERY],
  score({ probe }) {
    const p = probe(KINDS_QUERY);
    const kinds = declaredKinds(p.ack()?.env);
    const out = kinds.map((k) => narrowed(p, kindStep(k), k)).filter((e): e is Evidence => e !== undefined);
    const unserved = p.sent(KINDS_QUERY.steps.unserved)[0];
    if (unserved) {
      const kind = (unserved.env.query as { kinds: string[] }).kinds[0]!;
      const e = narrowed(p, KINDS_QUERY.steps.unserved, kind);
      if (e) out.push(e);
    }
    return out.length > 0 ? out : { skip: "the provider declares no kinds in capabilities.query.kinds, so no narrowed query was sent" };
  },
});
