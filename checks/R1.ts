import { defineCheck, notSent, type Evidence } from "./kit/check.ts";
import { crash, crashedWords, crashesIn, crashFindings, how, signature, type Crash, type Crashed } from "./kit/crash.ts";
import { validateEnvelope } from "../src/schema/index.ts";
import { findings, type Param } from "./kit/findings.ts";
import {
  afterStep,
  BYTE_STIMULI,
  EMBEDDING_MISMATCH,
  MALFORMED_BYTES,
  MALFORMED_INPUT,
  MALFORMED_STIMULI,
  type MalformedStimulus,
  PROBE_SPECS,
  PROVENANCE_FILES,
  UNKNOWN_KIND,
  UNKNOWN_KIND_PROBE,
} from "../src/protocol/probes.ts";
import { stimulusOutcome } from "./kit/stimulus.ts";
import { show } from "./kit/show.ts";
import { envelopeOf, type Message, type ProbeView } from "../src/transcript/view.ts";
import type { TranscriptEvent } from "../src/transcript/types.ts";

/** A malformed stimulus sent, as a finding's param: its step (the stimulus table says what it is), its text or bytes as sent, its line. */
type Sent = { step: string; text?: string; hex?: string; line: number };
/** A reply as a finding names it. */
type Reply = { type: Param; code?: Param; line: number };

const STIMULI = [...MALFORMED_STIMULI, ...BYTE_STIMULI];

function sentAt(step: string, sent: TranscriptEvent): Sent {
  return { step, ...(sent.line_hex !== undefined ? { hex: sent.line_hex } : { text: sent.line ?? "" }), line: sent.n };
}

/**
 * A stimulus as the reader should see it: its bytes when they are not UTF-8,
 * else its text quoted, a long one by its start and its end (where a CR
 * before the LF sits).
 */
function shown(p: Sent): string {
  if (p.hex !== undefined) return `bytes ${p.hex.match(/../g)!.join(" ")}`;
  const line = p.text ?? "";
  return line.length <= 64 ? show(line) : `${show(line.slice(0, 48))} … ${show(line.slice(-16))} (${line.length} chars)`;
}

const label = (p: Sent): string => `after ${STIMULI.find((s) => s.step === p.step)?.what ?? p.step} (${shown(p)}, line ${p.line})`;
const replyWords = (m: Reply): string => `${show(m.type)}${m.code !== undefined ? ` code ${show(m.code)}` : ""} (line ${m.line})`;
const replyOf = (m: Message): Reply => ({ type: m.env.type as Param, code: m.env.code as Param, line: m.n });

/** Each stimulus is a defect of its own: its findings are apart by its step. */
const F = findings({
  survived: { ok: true, apart: ["step"], says: (p: Sent & { answer: number }) => `${label(p)}, the provider answered the next valid query (line ${p.answer})` },
  "stopped-answering": {
    apart: ["step"],
    says: (p: Sent & { why: string }) => `${label(p)}, ${p.why}`,
    expected: () => "the provider stays alive and answers the next valid query",
    actual: (p: { why: string }) => p.why,
  },
  "silent-throughout": {
    untestable: true,
    apart: ["step"],
    says: (p: Sent & { why: string }) =>
      `${label(p)}, ${p.why}; the provider answered no query anywhere in the run, so what this line did cannot be told from what every query meets`,
  },
  "bad-request": { ok: true, apart: ["step"], says: (p: Sent) => `${label(p)}, the provider replied error bad_request` },
  "no-bad-request": {
    cites: "It SHOULD reply error with code bad_request",
    level: "SHOULD",
    apart: ["step"],
    says: (p: Sent & { replies: Reply[] }) => `${label(p)}, the provider did not reply error bad_request`,
    expected: () => 'an error envelope with code "bad_request"',
    actual: (p: { replies: Reply[] }) => (p.replies.length === 0 ? "no reply" : p.replies.map(replyWords).join(", ")),
  },
  "crlf-served": { ok: true, apart: ["step"], says: (p: Sent) => `${label(p)}, the provider answered it as the query it is` },
  /** No keyword asks a query ending in CR LF to be served: a refusal warns, never fails. */
  "crlf-not-served": {
    cites: "exactly one envelope per line, newline-delimited (NDJSON)",
    level: "NONE",
    apart: ["step"],
    says: (p: Sent & { answer: Reply | null }) =>
      `${label(p)}, the provider did not answer it as a query: a CR before the LF is JSON whitespace (RFC 8259 §2), so the line held one envelope, a valid query`,
    expected: () => "a frames envelope answering the query",
    actual: (p: { answer: Reply | null }) => (p.answer ? replyWords(p.answer) : "no reply"),
  },
  "unknown-kind-survived": {
    ok: true,
    says: (p: { answer: number }) => `after a query for the unknown kind ${UNKNOWN_KIND}, the provider answered the next query (line ${p.answer})`,
  },
  "unknown-kind-stopped": {
    says: (p: { line: number; why: string }) => `after a query for the unknown kind ${UNKNOWN_KIND} (line ${p.line}), ${p.why}`,
    expected: () => "the provider stays alive",
    actual: (p: { why: string }) => p.why,
  },
  /** A crash on a well-formed query: the sentence does not cover it, and the check the query was for could not observe it. */
  "crashed-on-query": {
    cites: "A provider MUST NOT crash on a malformed line or bad request",
    level: "NONE",
    reading:
      "the query it died on was well-formed (of the wire shape, and no request the spec names one to refuse as bad), which the sentence does not cover, so no keyword forbids the crash; the check the query was for could not observe it and says so, so the run is not conformant either way",
    apart: ["error", "exit_code", "signal", "died_on"],
    says: (p: Crashed) => crashedWords(p),
    expected: () => "an answer to the query, the provider alive",
    actual: (p: Crashed) => `the provider ${how(p)}`,
  },
  /** The same, from a provider that answered no query anywhere: nothing tells the kind did it. */
  "unknown-kind-unjudged": {
    untestable: true,
    says: (p: { line: number; why: string }) => `after a query for the unknown kind ${UNKNOWN_KIND} (line ${p.line}), ${p.why}`,
    expected: () => "the provider stays alive",
    actual: (p: { why: string }) => p.why,
  },
});

/** How a valid query spelt unusually (CR LF) was answered: as the query it is, or as a malformed line. */
function asQuery(p: ProbeView, o: { sent: TranscriptEvent; replies: Message[] }, at: Sent): Evidence {
  const id = envelopeOf(o.sent)?.id;
  const answer =
    id !== undefined
      ? p.received().find((m) => m.n > o.sent.n && m.env.id === id && (m.env.type === "frames" || m.env.type === "error"))
      : o.replies.find((m) => m.env.type === "frames" || m.env.type === "error");
  if (answer?.env.type === "frames") return F.say("crlf-served", at, { lines: [o.sent.n, answer.n] });
  return F.say("crlf-not-served", { ...at, answer: answer ? replyOf(answer) : null }, { lines: [o.sent.n, ...(answer ? [answer.n] : [])] });
}

/** An exit that a stimulus of R1's own was followed by: a crash, judged with every other crash (one finding per cause). */
function crashAfter(p: ProbeView, sent: { n: number; session: string }, until: number | undefined): boolean {
  return p.events.some(
    (e) => e.note === "exit" && e.reason === undefined && e.session === sent.session && e.n > sent.n && (until === undefined || e.n <= until),
  );
}

/** Whether the provider answered a query anywhere in the run: without that, a query left unanswered after a bad line says nothing of the line. */
function answersQueries(views: readonly ProbeView[]): boolean {
  // Frames, not an error: a bad_request to a malformed query shows the provider reads lines, not that it serves queries.
  return views.some((v) => v.sent().some((m) => m.env.type === "query" && !m.aim?.rules.includes("R1") && v.answer(m.step, ["frames"])?.env.type === "frames"));
}

function malformed(p: ProbeView, table: readonly MalformedStimulus[], answers: boolean): Evidence[] {
  const out: Evidence[] = [];
  for (const st of table) {
    const o = stimulusOutcome(p, st.step, afterStep(st.step, p.spec));
    if (!o) continue;
    const at = sentAt(st.step, o.sent);
    if (o.silence) {
      // A crash is one of the crashes below; a provider alive but answering nothing more is this stimulus's own finding,
      // unless it answered no query anywhere: then the line cannot be told to have done it.
      if (crashAfter(p, o.sent, o.silence.line)) continue;
      const lines = [o.sent.n, o.silence.line];
      out.push(F.say(answers ? "stopped-answering" : "silent-throughout", { ...at, why: o.silence.why }, { lines }));
      continue;
    }
    const lines = [o.sent.n, ...o.replies.map((m) => m.n), o.answer!.n];
    out.push(F.say("survived", { ...at, answer: o.answer!.n }, { lines }));
    if (st.valid) out.push(asQuery(p, o, at));
    // The stimulus table says, and why, which stimuli the SHOULD binds (an object that may be a notification, a lone surrogate escape and a valid query it does not).
    if (!st.reply) continue;
    // A correlating provider may answer out of order: a bad_request echoing the stimulus's id counts wherever it came.
    const id = envelopeOf(o.sent)?.id;
    const named =
      o.replies.find((m) => m.env.type === "error" && m.env.code === "bad_request") ??
      (id !== undefined ? p.received().find((m) => m.n > o.sent.n && m.env.id === id && m.env.type === "error" && m.env.code === "bad_request") : undefined);
    out.push(named ? F.say("bad-request", at, { lines: [o.sent.n, named.n] }) : F.say("no-bad-request", { ...at, replies: o.replies.map(replyOf) }, { lines }));
  }
  return out;
}

/** A query for a kind no revision defines is a request the provider may refuse; dying on it is a crash on a bad request. */
function unknownKind(p: ProbeView, answers: boolean): Evidence[] {
  const steps = UNKNOWN_KIND_PROBE.steps;
  const last = p.sent(steps.mixed).length > 0 ? steps.mixed : steps.unknown;
  const o = stimulusOutcome(p, last, steps.after);
  if (!o) return [];
  if (o.silence && crashAfter(p, o.sent, o.silence.line)) return [];
  if (o.silence)
    return [F.say(answers ? "unknown-kind-stopped" : "unknown-kind-unjudged", { line: o.sent.n, why: o.silence.why }, { lines: [o.sent.n, o.silence.line] })];
  return [F.say("unknown-kind-survived", { answer: o.answer!.n }, { lines: [o.answer!.n] })];
}

const RULE = "R1: a provider MUST NOT crash on a malformed line or bad request";
const RULE_QUERY =
  "R1 forbids a crash on a malformed line or bad request, and a well-formed query is neither: the check each query was for reports it not observed, and no keyword forbids the crash itself";

/**
 * Whether a crash was on a well-formed query of another check's probe: a query of the wire shape (validated as
 * every envelope is, unknown members ignored), not one of R1's own stimuli, and not the one query the spec names a
 * request to refuse with bad_request (an embedding whose length contradicts the declared dimension, E1).
 */
function onWellFormedQuery(c: Crash): boolean {
  const env = envelopeOf(c.stimulus);
  if (env?.type !== "query" || c.stimulus.aim?.rules.includes("R1")) return false;
  if (c.probe === EMBEDDING_MISMATCH.name && c.stimulus.step === EMBEDDING_MISMATCH.steps.wrong) return false;
  return validateEnvelope(env, "interop").length === 0;
}

/** The probes whose crashes R1 holds beside its own: every one whose own check does not judge what follows its stimuli. */
const OBSERVED = PROBE_SPECS.filter((p) => p !== PROVENANCE_FILES && p.survivalJudgedBy === undefined);
/** The probes whose own checks judge a crash on (some of) their stimuli: a crash alike elsewhere is theirs too. */
const JUDGED = PROBE_SPECS.filter((p) => p.survivalJudgedBy !== undefined && p.survivalJudgedBy !== "R1");

/** Whether a crash is on a stimulus whose survival another check judges. */
function judgedElsewhere(c: Crash): boolean {
  const spec = JUDGED.find((p) => p.name === c.probe);
  if (!spec) return false;
  const type = envelopeOf(c.stimulus)?.type;
  return spec.survivalOf === undefined || (typeof type === "string" && spec.survivalOf.includes(type));
}

/**
 * @anchor R1
 * Stimulus: probe malformed-input: each of its malformed lines and bad
 * requests (a line that is not JSON, {}, a JSON array, a query with no query
 * member, one with wrong member types; request-shaped ones with an id to a
 * correlating provider, plus a typeless request with an id); probe
 * malformed-bytes, after them in the same session: lines a line reader or JSON
 * parser may trip on (a query whose goal is the escape \ud800, one with a
 * raw NUL byte inside a string, one with a bare CR inside a string, a valid
 * query ending in CR LF, and the two bytes FF FE, which are not UTF-8); each
 * chased by a valid query; and probe unknown-kind, whose query for a kind no
 * revision defines must not kill the provider either.
 * Readings: survival (the MUST) binds every stimulus. The SHOULD (reply
 * bad_request) binds a line that holds no envelope, since "Every message is
 * a single JSON object" (§2), written in RFC 8259's JSON: not JSON at all,
 * a JSON value that is no object, a raw NUL or CR inside a string ("the
 * control characters (U+0000 through U+001F)" must be escaped, RFC 8259 §7),
 * bytes that are not UTF-8 (JSON between systems "MUST be encoded using
 * UTF-8", §8.1); and a request that cannot be served (no query member,
 * mistyped members, a typeless request with an id). It does not bind:
 * an object with neither type nor id ({}), which may be a notification, and
 * §2 says a notification "expects no reply"; a query whose goal is a lone
 * surrogate escape, which matches JSON's grammar and which RFC 8259 §8.2
 * leaves to the receiver (a conformant parser may accept it: served or
 * refused, both honest); and a valid query ending in CR LF, whose CR is JSON
 * whitespace (§2 of RFC 8259), so the line holds one envelope: answered with
 * frames it is as it should be, and any other answer warns, never fails
 * (no keyword asks for it). To a lock-step provider those two queries are
 * awaited before the valid query goes (their frames could pass for its): one
 * never answered wedges any lock-step host, and is that stimulus's finding;
 * with correlation the ids tell answers apart and nothing is awaited.
 * A query for an unknown kind counts as a request the
 * provider may find bad: dying on it fails, any answer passes (Q1 judges the answer).
 * Every crash: the provider exiting by itself on any stimulus of any probe
 * (but shutdown's, the foreign handshake's, an unknown type's and verify's,
 * whose own checks judge what follows them: R2, H3, S2-framing, V2) fails
 * where its stimulus was a malformed line or a bad request: R1's own
 * stimuli, any line that is no query of the wire shape, and a query whose
 * embedding contradicts the declared dimension (E1 names it one to refuse
 * with bad_request). A crash on a well-formed query (of the wire shape,
 * validated as every envelope is, unknown members ignored) is not what the
 * sentence covers: "MUST NOT crash on a malformed line or bad request" says
 * nothing of a good request, and reading "bad request" as whatever the
 * provider could not serve would fail by a word the spec does not say. It
 * warns, with no keyword, and the run is not conformant all the same: the
 * stimulus was passed over, so the check it was for reports it not observed
 * (the engine's not-observed finding for a probe whose provider died). A
 * crash on a well-formed query alike (the same error, the same exit) to one
 * on a malformed line or bad request is that one's cause, and fails with it.
 * Crashes alike (the same last error on stderr, the
 * same exit) are one finding listing the stimuli they followed; each was
 * passed over and what its session had not sent was sent in a fresh one, so
 * the checks those stimuli were for say "not observed" for them alone. A
 * crash alike (the same error, the same exit) to one on a stimulus whose own
 * check judges survival (an unknown type's, S2-framing's) is that check's
 * finding, wherever else it happened.
 */
export default defineCheck({
  findings: { ...F.table, ...crash.table },
  id: "R1",
  title: "Provider survives malformed lines and bad requests",
  level: "MUST",
  requirement: "A provider MUST NOT crash on a malformed line or bad request. It SHOULD reply error with code bad_request.",
  probes: [MALFORMED_INPUT, MALFORMED_BYTES, UNKNOWN_KIND_PROBE],
  observes: [...OBSERVED, ...JUDGED],
  score({ probe }) {
    const p = probe(MALFORMED_INPUT);
    const own = [probe(MALFORMED_INPUT), probe(MALFORMED_BYTES), probe(UNKNOWN_KIND_PROBE)];
    // A crash on a stimulus another check judges survival of (an unknown type is S2-framing's, a verify V2's) is that
    // check's finding, and so is the same crash, alike in its error, on any other stimulus.
    const others = crashesIn([...OBSERVED, ...JUDGED].map(probe));
    const judged = new Set(others.filter(judgedElsewhere).map(signature));
    const mine = others.filter((c) => !judgedElsewhere(c) && !judged.has(signature(c)));
    const crashes: Crash[] = [...crashesIn(own), ...mine.filter((c) => !onWellFormedQuery(c))];
    // A crash alike (the same error, the same exit) to one on a malformed line or bad request is that one's cause.
    const failing = new Set(crashes.map(signature));
    const onQueries = mine.filter((c) => onWellFormedQuery(c));
    crashes.push(...onQueries.filter((c) => failing.has(signature(c))));
    const answers = answersQueries([...own, ...OBSERVED.map(probe)]);
    const out = [
      ...malformed(p, MALFORMED_STIMULI, answers),
      ...malformed(probe(MALFORMED_BYTES), BYTE_STIMULI, answers),
      ...unknownKind(probe(UNKNOWN_KIND_PROBE), answers),
      ...crashFindings(crashes, RULE),
      ...crashFindings(
        onQueries.filter((c) => !failing.has(signature(c))),
        RULE_QUERY,
        (p, at) => F.say("crashed-on-query", p, at),
      ),
    ];
    return out.length > 0 ? out : notSent(p.name, "malformed input");
  },
});
