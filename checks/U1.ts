import { defineCheck, type Evidence } from "./kit/check.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE_STEP, UNKNOWN_MEMBERS } from "../src/protocol/probes.ts";

/** The frames an answer served, as a set of ids: ranking is provider-private (§5), so order says nothing. */
const served = (env: Obj): string[] => [...new Set(framesIn(env).map((f) => JSON.stringify(f.id)))].sort();

/** A result cut short of its candidates: which frames made the cut may differ whenever the ranking does (ties, approximate indexes, recency). */
const frames = (n: number): string => `${n} frame${n === 1 ? "" : "s"}`;

const cut = (env: Obj): boolean => isObj(env.result) && env.result.truncated === true;

/**
 * @anchor U1
 * Stimulus: probe unknown-members: a handshake with an unknown member, then
 * the same query plain and decorated with unknown members at the envelope
 * and query level.
 * Reading: a provider's ranking may change between two identical queries
 * (ties, approximate indexes, recency: §5 keeps it provider-private), so the
 * two answers are compared as sets of frame ids, never by order or content,
 * and only where nothing else explains a difference: a truncated answer may
 * keep other frames at its cut whenever the ranking moves, and a plain query
 * refused leaves nothing to compare. A decorated query refused while the
 * plain one was answered, or served a different set with neither truncated,
 * is the rejection or the dependence on unknown members U1 forbids (MUST).
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
      return out;
    }
    if (plain.env.type === "error" || decorated.env.type === "error") {
      out.push({
        ok: true,
        message:
          decorated.env.type === "error"
            ? `both queries were refused (error ${show(plain.env.code)}, error ${show(decorated.env.code)}): the unknown members made no difference`
            : `the plain query was refused (error ${show(plain.env.code)}) and the one with unknown members answered: nothing was rejected for them`,
        lines,
      });
      return out;
    }
    const before = served(plain.env);
    const after = served(decorated.env);
    const missing = before.filter((id) => !after.includes(id));
    const added = after.filter((id) => !before.includes(id));
    if (missing.length === 0 && added.length === 0) {
      out.push({ ok: true, message: `the query with unknown members was served the same ${frames(before.length)} as without them`, lines });
    } else if (cut(plain.env) || cut(decorated.env)) {
      out.push({
        ok: true,
        message: `the query with unknown members was served ${frames(after.length)}, ${missing.length} of the plain query's ${before.length} not among them, but ${cut(plain.env) && cut(decorated.env) ? "both answers were" : `the ${cut(plain.env) ? "plain" : "decorated"} answer was`} truncated: which frames make the cut varies with the ranking, so nothing shows the unknown members were not ignored`,
        lines,
      });
    } else {
      out.push({
        ok: false,
        message: `the query with unknown members was served a different set of frames than the same query without them: ${missing.length} of the plain query's ${frames(before.length)} missing (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}), ${added.length} others added${added.length > 0 ? ` (${added.slice(0, 3).join(", ")}${added.length > 3 ? ", …" : ""})` : ""}; neither answer was truncated`,
        expected: `the plain query's frames: ${before.slice(0, 5).join(", ")}${before.length > 5 ? ", …" : ""}`,
        actual: after.length === 0 ? "no frames" : `${after.slice(0, 5).join(", ")}${after.length > 5 ? ", …" : ""}`,
        lines,
      });
    }
    return out;
  },
});
