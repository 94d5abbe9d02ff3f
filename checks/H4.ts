import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { show } from "./kit/show.ts";
import { afterIdStep, CORRELATION } from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import type { Message, ProbeView } from "../src/transcript/view.ts";

/** Requests that always get an answer. */
const ANSWERED = [CORRELATION.steps.first, CORRELATION.steps.second, CORRELATION.steps.refused, CORRELATION.steps.verify];
/** Requests that may go unanswered (a SHOULD elsewhere), each chased by a valid query. */
const CHASED = [CORRELATION.steps.malformed, CORRELATION.steps.embedding, CORRELATION.steps.unknownType, CORRELATION.steps.badVerify];

/** A request in words: its type, and its id ("the verify request \"v-1\""). */
const requestWords = (sent: Message): string => `the ${typeof sent.env.type === "string" ? show(sent.env.type) : "untyped"} request ${show(sent.env.id)}`;

function echoed(sent: Message, reply: Message): Evidence {
  const lines = [sent.n, reply.n];
  return reply.env.id === sent.env.id
    ? { ok: true, message: `${show(reply.env.type)} echoes id ${show(sent.env.id)}`, lines }
    : {
        ok: false,
        message:
          reply.env.id === undefined
            ? `the ${show(reply.env.type)}${reply.env.code !== undefined ? ` ${show(reply.env.code)}` : ""} answering ${requestWords(sent)} (line ${sent.n}) carries no id`
            : `the ${show(reply.env.type)}${reply.env.code !== undefined ? ` ${show(reply.env.code)}` : ""} answering ${requestWords(sent)} (line ${sent.n}) carries id ${show(reply.env.id)}, not the same string`,
        expected: show(sent.env.id),
        actual: show(reply.env.id),
        lines,
      };
}

/** A chased request's reply: whatever came before the chasing query's answer. None is not H4's to judge. */
function chased(p: ProbeView, step: string): Evidence[] {
  const o = stimulusOutcome(p, step, afterIdStep(step));
  if (!o) return [];
  const sent = p.sent(step)[0]!;
  // A reply echoing another request's id answers that request (late), never this one.
  const others = p.outstanding(step);
  const reply =
    o.replies.find((m) => m.env.id === sent.env.id) ??
    o.replies.find((m) => ["frames", "error", "verified"].includes(m.env.type as string) && !others.has(m.env.id));
  return reply ? [echoed(sent, reply)] : [];
}

/**
 * @anchor H4
 * Stimulus: probe correlation: queries whose ids differ only in case and
 * carry non-ASCII, a slash and a space; then every request that can end in
 * an error: an unadvertised representation, a malformed query, a
 * wrong-length embedding, an unknown request type, a malformed verify; and a
 * verify. A request that may go unanswered (R1's, E1's SHOULD) is chased by a
 * valid query: its reply, if any, is what came before that query's answer,
 * and no reply is not H4's finding. Without capabilities.correlation the host sends no id (the host
 * rule), and the provider is fully conformant: skip.
 */
export default defineCheck({
  id: "H4",
  title: "Provider echoes the request id verbatim",
  level: "MUST",
  requirement: "A provider declaring capabilities.correlation MUST echo a request's id verbatim on the corresponding frames or error.",
  probes: [CORRELATION],
  score({ probe }) {
    const p = probe(CORRELATION);
    if (capabilities(p.ack()?.env).correlation !== true) {
      return { skip: "capabilities.correlation is not declared: requests carry no id (the host rule) and lock-step is fully conformant" };
    }
    const out: Evidence[] = [];
    for (const step of ANSWERED) {
      const sent = p.sent(step)[0];
      if (!sent) continue;
      const reply = p.answer(step);
      if (!reply) {
        const s = p.silence(step);
        out.push({
          ok: false,
          untestable: true,
          message: `${requestWords(sent)} (line ${sent.n}) got no reply to check: ${s.why}`,
          lines: [sent.n, ...s.lines],
        });
        continue;
      }
      out.push(echoed(sent, reply));
    }
    for (const step of CHASED) out.push(...chased(p, step));
    return out.length > 0 ? out : notSent(p.name, "request with an id");
  },
});
