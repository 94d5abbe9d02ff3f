import { defineCheck, type Evidence } from "./kit/check.ts";
import { framesIn, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE_STEP, UNKNOWN_MEMBERS } from "../src/protocol/probes.ts";

/** What a frames answer says, for comparison: each frame's id and content, in order. */
const gist = (env: Obj): string => JSON.stringify(framesIn(env).map((f) => [f.id, f.content]));

/**
 * @anchor U1
 * Stimulus: probe unknown-members: a handshake with an unknown member, then
 * the same query plain and decorated with unknown members at the envelope
 * and query level.
 */
export default defineCheck({
  id: "U1",
  title: "Unknown members are ignored, not rejected",
  level: "MUST",
  requirement:
    "A receiver MUST ignore an object member it does not recognise, in any envelope, capability set, frame, or nested object — it MUST NOT reject the message on that basis.",
  probes: [UNKNOWN_MEMBERS],
  scoresHandshake: true,
  score({ probe }) {
    const p = probe(UNKNOWN_MEMBERS);
    const hs = p.sent(HANDSHAKE_STEP)[0]!;
    const ack = p.ack();
    if (!ack) {
      const s = p.silence(HANDSHAKE_STEP);
      const got = p.received(HANDSHAKE_STEP)[0];
      return [
        {
          ok: false,
          message: "a handshake carrying an unknown member got no handshake_ack",
          expected: "handshake_ack",
          actual: got ? `${show(got.env.type)}${got.env.code !== undefined ? ` with code ${show(got.env.code)}` : ""}` : s.why,
          lines: [hs.n, ...(got ? [got.n] : s.lines)],
        },
      ];
    }
    const out: Evidence[] = [{ ok: true, message: "a handshake carrying an unknown member was acknowledged", lines: [hs.n, ack.n] }];
    const plain = p.answer(UNKNOWN_MEMBERS.steps.plain, ["frames", "error"]);
    const decorated = p.answer(UNKNOWN_MEMBERS.steps.decorated, ["frames", "error"]);
    const sent = p.sent(UNKNOWN_MEMBERS.steps.decorated)[0];
    if (!plain) {
      const q = p.sent(UNKNOWN_MEMBERS.steps.plain)[0];
      if (q) {
        const s = p.silence(UNKNOWN_MEMBERS.steps.plain);
        out.push({
          ok: false,
          untestable: true,
          message: `the plain query to compare against (line ${q.n}) got no answer: ${s.why}`,
          lines: [q.n, ...s.lines],
        });
      }
      return out;
    }
    if (!sent) return out;
    if (!decorated) {
      const s = p.silence(UNKNOWN_MEMBERS.steps.decorated);
      out.push({
        ok: false,
        message: `a query carrying unknown members (line ${sent.n}) got no answer: ${s.why}`,
        expected: "the same answer as the plain query",
        actual: s.why,
        lines: [sent.n, ...s.lines],
      });
      return out;
    }
    const lines = [plain.n, sent.n, decorated.n];
    if (decorated.env.type === "error" && plain.env.type !== "error") {
      out.push({
        ok: false,
        message: `the query with unknown members was rejected with error ${show(decorated.env.code)}; the plain one was answered`,
        expected: "the same answer as the plain query",
        actual: `error ${show(decorated.env.code)}: ${show(decorated.env.message)}`,
        lines,
      });
    } else if (gist(decorated.env) !== gist(plain.env)) {
      out.push({
        ok: false,
        message: "the query with unknown members got different frames than the same query without them",
        expected: gist(plain.env).slice(0, 200),
        actual: gist(decorated.env).slice(0, 200),
        lines,
      });
    } else {
      out.push({ ok: true, message: "the query with unknown members was answered exactly as without them", lines });
    }
    return out;
  },
});
