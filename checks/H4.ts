import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { afterIdStep, CORRELATION, PROBE_SPECS, PROVENANCE_FILES } from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import type { Message, ProbeView } from "../src/transcript/view.ts";

/** Requests that always get an answer. */
const ANSWERED = [
  CORRELATION.steps.first,
  CORRELATION.steps.second,
  CORRELATION.steps.digits,
  CORRELATION.steps.decomposed,
  CORRELATION.steps.refused,
  CORRELATION.steps.verify,
];
/** Requests that may go unanswered (a SHOULD elsewhere), each chased by a valid query. */
const CHASED = [CORRELATION.steps.malformed, CORRELATION.steps.embedding, CORRELATION.steps.unknownType, CORRELATION.steps.badVerify];

/** A request we sent: its type (null when it had none) and its id, and its line. */
type Request = { request: Param; id?: Param; line: number };
/** A reply to it: its type, and its error code if it carries one. */
type Reply = Request & { reply: Param; code?: Param; echoed?: Param };

/** A request in words: its type, and its id ("the verify request \"v-1\""). */
const requestWords = (p: Request): string => `the ${typeof p.request === "string" ? show(p.request) : "untyped"} request ${show(p.id)}`;
const replyWords = (p: Reply): string => `the ${show(p.reply)}${p.code !== undefined ? ` ${show(p.code)}` : ""} answering ${requestWords(p)} (line ${p.line})`;

/**
 * Each id probe correlation sends is a stimulus of its own (case, non-ASCII,
 * a slash, a space: each a different way to mangle it), so the id is apart:
 * what one reply does to its id is never folded into another's.
 */
const F = findings({
  echoed: { ok: true, apart: ["reply", "id"], says: (p: { reply: Param; id?: Param }) => `${show(p.reply)} echoes id ${show(p.id)}` },
  "id-dropped": {
    apart: ["reply", "code", "request", "id"],
    says: (p: Reply) => `${replyWords(p)} carries no id`,
    expected: (p: Reply) => show(p.id),
    actual: (p: Reply) => show(p.echoed),
  },
  "id-altered": {
    apart: ["reply", "code", "request", "id"],
    says: (p: Reply) => `${replyWords(p)} carries id ${show(p.echoed)}, not the same string`,
    expected: (p: Reply) => show(p.id),
    actual: (p: Reply) => show(p.echoed),
  },
  /** The session pairs replies by id (src/probe/exchange.ts): a reply its id pairs with no answer breaks what H4 lets a host rely on. */
  "duplicate-reply": {
    apart: ["reply", "request"],
    says: (p: Request & { reply: Param; first: number; at: number }) =>
      `a second reply carries the id of ${requestWords(p)} (line ${p.line}), already answered at line ${p.first}: the ${show(p.reply)} at line ${p.at} answers nothing`,
    expected: () => "one reply per request, carrying that request's id",
    actual: (p: { first: number; at: number }) => `replies at lines ${p.first} and ${p.at} carry the same id`,
  },
  "wrong-type-reply": {
    apart: ["reply", "request"],
    says: (p: Request & { reply: Param; at: number }) =>
      `the ${show(p.reply)} at line ${p.at} carries the id of ${requestWords(p)} (line ${p.line}), which a ${show(p.reply)} never answers`,
    expected: (p: Request) => (p.request === "verify" ? "verified or error" : p.request === "handshake" ? "handshake_ack or error" : "frames or error"),
    actual: (p: { reply: Param }) => show(p.reply),
  },
  "unasked-reply": {
    apart: ["reply"],
    says: (p: { reply: Param; echoed?: Param; at: number }) =>
      `the ${show(p.reply)} at line ${p.at} carries id ${show(p.echoed)}, which names no request in flight, and no request was waiting for a reply of its type`,
    expected: () => "the id of a request in flight",
    actual: (p: { echoed?: Param }) => show(p.echoed),
  },
  "no-reply": {
    untestable: true,
    apart: ["request", "id"],
    says: (p: Request & { why: string }) => `${requestWords(p)} (line ${p.line}) got no reply to check: ${p.why}`,
  },
});

const requestOf = (sent: Message): Request => ({ request: typeof sent.env.type === "string" ? sent.env.type : null, id: sent.env.id as Param, line: sent.n });

function echoed(sent: Message, reply: Message): Evidence {
  const lines = [sent.n, reply.n];
  if (reply.env.id === sent.env.id) return F.say("echoed", { reply: reply.env.type as Param, id: sent.env.id as Param }, { lines });
  const p: Reply = { ...requestOf(sent), reply: reply.env.type as Param, code: reply.env.code as Param, echoed: reply.env.id as Param };
  return F.say(reply.env.id === undefined ? "id-dropped" : "id-altered", p, { lines });
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

/** Every other probe that talks: its replies are paired by id too, and a reply that answers nothing is H4's wherever it came. */
const OTHERS = PROBE_SPECS.filter((s) => s !== CORRELATION && s !== PROVENANCE_FILES);

/** The replies the session could pair with no answer, in a session whose provider declared correlation. */
function unpaired(v: ProbeView): Evidence[] {
  if (capabilities(v.ack()?.env).correlation !== true) return [];
  const out: Evidence[] = [];
  for (const m of v.received()) {
    if (m.pairing === undefined) continue;
    const reply = m.env.type as Param;
    const sent = m.replyTo === undefined ? undefined : v.sent().find((s) => s.session === m.session && s.seq === m.replyTo);
    if (m.pairing === "unasked" || !sent) {
      if (m.env.id === undefined) continue;
      out.push(F.say("unasked-reply", { reply, echoed: m.env.id as Param, at: m.n }, { lines: [m.n] }));
      continue;
    }
    if (m.pairing === "duplicate") {
      const first = v.answerTo(sent);
      out.push(
        F.say("duplicate-reply", { ...requestOf(sent), reply, first: first?.n ?? sent.n, at: m.n }, { lines: [sent.n, ...(first ? [first.n] : []), m.n] }),
      );
    } else out.push(F.say("wrong-type-reply", { ...requestOf(sent), reply, at: m.n }, { lines: [sent.n, m.n] }));
  }
  return out;
}

/**
 * @anchor H4
 * Stimulus: probe correlation: queries whose ids differ only in case and
 * carry non-ASCII, a slash and a space, one whose id is only digits (a
 * string: echoed as a JSON number it is not verbatim), one whose id is the
 * first's in decomposed Unicode (echoed normalised, it is the first's); then
 * every request that can end in
 * an error: an unadvertised representation, a malformed query, a
 * wrong-length embedding, an unknown request type, a malformed verify; and a
 * verify. A request that may go unanswered (R1's, E1's SHOULD) is chased by a
 * valid query: its reply, if any, is what came before that query's answer,
 * and no reply is not H4's finding. Without capabilities.correlation the host sends no id (the host
 * rule), and the provider is fully conformant: skip.
 */
export default defineCheck({
  findings: F.table,
  id: "H4",
  title: "Provider echoes the request id verbatim",
  level: "MUST",
  requirement: "A provider declaring capabilities.correlation MUST echo a request's id verbatim on the corresponding frames or error.",
  probes: [CORRELATION],
  observes: OTHERS,
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
        out.push(F.say("no-reply", { ...requestOf(sent), why: s.why }, { lines: [sent.n, ...s.lines] }));
        continue;
      }
      out.push(echoed(sent, reply));
    }
    for (const step of CHASED) out.push(...chased(p, step));
    for (const v of [p, ...OTHERS.map((o) => probe(o))]) out.push(...unpaired(v));
    return out.length > 0 ? out : notSent(p.name, "request with an id");
  },
});
