import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { show } from "./kit/show.ts";
import { CORRELATION } from "../src/protocol/probes.ts";

const STEPS = Object.values(CORRELATION.steps);

/**
 * @anchor H4
 * Stimulus: probe correlation: queries whose ids differ only in case and
 * carry non-ASCII, a slash and a space; a query for an unadvertised
 * representation (for an error); a verify. Without capabilities.correlation the host sends no id (the host
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
    for (const step of STEPS) {
      const sent = p.sent(step)[0];
      if (!sent) continue;
      const reply = p.answer(step);
      if (!reply) {
        const s = p.silence(step);
        out.push({
          ok: false,
          untestable: true,
          message: `request ${show(sent.env.id)} (line ${sent.n}) got no reply to check: ${s.why}`,
          lines: [sent.n, ...s.lines],
        });
        continue;
      }
      const lines = [sent.n, reply.n];
      out.push(
        reply.env.id === sent.env.id
          ? { ok: true, message: `${show(reply.env.type)} echoes id ${show(sent.env.id)}`, lines }
          : {
              ok: false,
              message:
                reply.env.id === undefined
                  ? `the ${show(reply.env.type)} answering request ${show(sent.env.id)} carries no id`
                  : `the ${show(reply.env.type)} answering request ${show(sent.env.id)} carries id ${show(reply.env.id)}, not the same string`,
              expected: show(sent.env.id),
              actual: show(reply.env.id),
              lines,
            },
      );
    }
    return out.length > 0 ? out : notSent(p.name, "request with an id");
  },
});
