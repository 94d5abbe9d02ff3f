import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { MALFORMED_INPUT, MALFORMED_STIMULI as STIMULI, afterStep } from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { show } from "./kit/show.ts";

/**
 * @anchor R1
 * Stimulus: each line of STIMULI, each chased by a valid query (probe malformed-input).
 */
export default defineCheck({
  id: "R1",
  title: "Provider survives malformed lines and bad requests",
  level: "MUST",
  requirement: "A provider MUST NOT crash on a malformed line or bad request. It SHOULD reply error with code bad_request.",
  probes: [MALFORMED_INPUT],
  score({ probe }) {
    const p = probe(MALFORMED_INPUT);
    const out: Evidence[] = [];
    for (const st of STIMULI) {
      const o = stimulusOutcome(p, st.step, afterStep(st.step));
      if (!o) break;
      const label = `after ${st.what} (${show(st.line, 60)}, line ${o.sent.n})`;
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
      const named = o.replies.find((m) => m.env.type === "error" && m.env.code === "bad_request");
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
    return out.length > 0 ? out : notSent(p.name, "malformed input");
  },
});
