import { counted } from "../../src/verdict/words.ts";
import { site, type Evidence } from "./check.ts";
import { type Message, type ProbeView } from "../../src/transcript/view.ts";
import { framesAt, framesIn, isObj, type Obj } from "../../src/protocol/envelope.ts";
import { show } from "./show.ts";
import type { Param } from "./findings.ts";
import { common } from "./common-findings.ts";
import { findings } from "./findings.ts";
import { BUDGET_SQUEEZE, PROBE_SPECS, SAMPLE_QUERY, type ProbeSpec } from "../../src/protocol/probes.ts";

/** A query we sent and the provider's answer to it, if one came. */
export interface Exchange {
  probe: string;
  step: string;
  query: Message;
  /** The query member of the envelope we sent. */
  body: Obj;
  answer?: Message;
}

export interface ServedFrame {
  frame: Obj;
  /** Index in result.frames. */
  index: number;
  /** Transcript line of the frames envelope carrying it. */
  line: number;
  exchange: Exchange;
}

/**
 * A view's exchanges and served frames, made once however many checks read
 * them (a dozen judge every frame): read-only, like the view they come from.
 */
const EXCHANGES = new WeakMap<ProbeView, Exchange[]>();
const SERVED = new WeakMap<ProbeView, ServedFrame[]>();

function exchangesOf(v: ProbeView): Exchange[] {
  let out = EXCHANGES.get(v);
  if (out) return out;
  out = [];
  for (const q of v.sent()) {
    if (q.env.type !== "query" || !isObj(q.env.query)) continue;
    // Lock-step: the first answer in the query's step is its answer; H4 judges the id.
    const answer = v.answer(q.step, ["frames", "error"]);
    out.push({ probe: v.name, step: q.step, query: q, body: q.env.query, answer });
  }
  EXCHANGES.set(v, out);
  return out;
}

function servedOf(v: ProbeView): ServedFrame[] {
  let out = SERVED.get(v);
  if (!out) SERVED.set(v, (out = servedFrames(exchangesOf(v))));
  return out;
}

/** Every frame served in these probes' answers (the views' own, made once each). */
export function servedIn(views: ProbeView[]): ServedFrame[] {
  return views.flatMap(servedOf);
}

/** Every query sent in these probes, paired with its answer. */
export function exchanges(views: ProbeView[]): Exchange[] {
  return views.flatMap(exchangesOf);
}

export function framesOf(x: Exchange): Obj[] | undefined {
  return x.answer?.env.type === "frames" ? framesIn(x.answer.env) : undefined;
}

export function servedFrames(xs: Exchange[]): ServedFrame[] {
  // The index is the frame's place in result.frames as sent, so a finding (and the schema site it claims) names that member.
  return xs.flatMap((x) =>
    (x.answer?.env.type === "frames" ? framesAt(x.answer.env) : []).map(({ frame, index }) => ({ frame, index, line: x.answer!.n, exchange: x })),
  );
}

/**
 * Queries that got no answer at all (the provider hung or died: R1 holds a
 * crash, a timeout is its own cause), as what they leave unobserved of a rule
 * read over every answer: the stimuli aimed at that rule, and, when the rule
 * saw nothing to judge at all, every one. A query aimed at another rule that
 * served nothing takes no frame away from one that judged others.
 */
export function unanswered(xs: Exchange[], views: ProbeView[], opts: { judged: boolean; own?: string }): Evidence[] {
  return xs
    .filter((x) => !x.answer && (!opts.judged || (opts.own !== undefined && x.query.aim?.rules.includes(opts.own) === true)))
    .map((x) => {
      const s = views.find((p) => p.name === x.probe)!.silence(x.step);
      return common.say("unanswered", { line: x.query.n, probe: x.probe, step: x.step, why: s.why }, { lines: [x.query.n, ...s.lines] });
    });
}

export function frameName(f: Pick<ServedFrame, "frame" | "index" | "line">): string {
  return framed(frameAt(f));
}

/** Where a frame was served, as a finding's param: its id as sent, its index in result.frames, the transcript line. */
export interface FrameAt {
  [k: string]: Param;
  id: Param;
  index: number;
  line: number;
}

export function frameAt(f: Pick<ServedFrame, "frame" | "index" | "line">): FrameAt {
  return { id: (f.frame.id ?? null) as Param, index: f.index, line: f.line };
}

/** A frame param in words, as every frame finding names it. */
export function framed(p: FrameAt): string {
  return `frame ${show(p.id)} (result.frames[${p.index}], line ${p.line})`;
}

/** A frame that kept a frame rule: not a finding of its own, only counted (and its line kept) in the summary of those that kept it. */
export type Kept = { ok: true; lines: readonly number[] };
export const kept = (line: number): Kept => ({ ok: true, lines: [line] });

/**
 * Score a rule that each served frame must satisfy: one failure per frame
 * that breaks it, one summary for those that keep it. Frames the rule does
 * not apply to (test returns undefined) are not counted.
 */
export function perFrame(views: ProbeView[], rule: string, test: (f: ServedFrame) => Evidence | Kept | undefined): Evidence[] | { skip: string } {
  const xs = exchanges(views);
  const frames = servedIn(views);
  const out: Evidence[] = [];
  // One pass, keeping only failures and a count: a long answer's frames leave no trail of passing evidence behind.
  let judged = 0;
  let held = 0;
  const heldLines = new Set<number>();
  for (const f of frames) {
    const e = test(f);
    if (e === undefined) continue;
    judged++;
    if (!e.ok) out.push(e);
    else {
      held++;
      for (const n of e.lines) heldLines.add(n);
    }
  }
  if (held > 0) out.push(common.say("held", { held, judged, rule }, { lines: [...heldLines] }));
  out.push(...unanswered(xs, views, { judged: judged > 0 }));
  if (out.length === 0) {
    return {
      skip:
        frames.length === 0
          ? "the provider served no frames to any probe query, so there is no frame to score"
          : `no served frame carries a field this rule covers (${counted(frames.length, "frame")} seen)`,
    };
  }
  return out;
}

/** The probes besides the two whose answers every frame rule scores: what they were served is judged too, failures only. */
export const SERVED_ELSEWHERE: readonly ProbeSpec[] = PROBE_SPECS.filter((p) => p !== SAMPLE_QUERY && p !== BUDGET_SQUEEZE);

/**
 * A frame rule held over every frame the provider sent: perFrame over the
 * answers of sample-query and budget-squeeze, and the failures of every
 * other frames envelope received (another probe's, or one that answered no
 * query), so a frame breaking the rule anywhere is this rule's finding,
 * never only a schema violation beside it. A check using it declares
 * SERVED_ELSEWHERE as `observes`.
 */
export function everyFrame(
  probe: (spec: ProbeSpec) => ProbeView,
  rule: string,
  test: (f: Pick<ServedFrame, "frame" | "index" | "line">) => Evidence | Kept | undefined,
): Evidence[] | { skip: string } {
  const views = [probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)];
  const own = perFrame(views, rule, test);
  const answered = new Set(servedIn(views).map((f) => f.line));
  const elsewhere = [...views, ...SERVED_ELSEWHERE.map(probe)]
    .flatMap((v) => v.received())
    .filter((m) => m.env.type === "frames" && !answered.has(m.n))
    .flatMap((m) => framesAt(m.env).map(({ frame, index }) => test({ frame, index, line: m.n })))
    .filter((e): e is Evidence => e !== undefined && !e.ok);
  return elsewhere.length === 0 ? own : [...(Array.isArray(own) ? own : []), ...elsewhere];
}

/**
 * Score a rule over each answer that carried frames: unanswered queries are
 * untestable, and with no frames anywhere the rule was never put to use.
 */
export function perAnswer(views: ProbeView[], test: (x: Exchange, frames: Obj[]) => Evidence, own?: string): Evidence[] | { skip: string } {
  const xs = exchanges(views);
  const out: Evidence[] = [];
  for (const x of xs) {
    const frames = framesOf(x);
    if (frames && frames.length > 0) out.push(test(x, frames));
  }
  out.push(...unanswered(xs, views, { judged: out.length > 0, ...(own !== undefined ? { own } : {}) }));
  return out.length > 0 ? out : { skip: "no query was answered with any frame, so no budget was put to use" };
}

/** Score "FIELD MUST be non-empty" over every served frame. */
/** The words of a rule that a frame's string member is non-empty (F2, F3). */
export const nonEmpty = findings({
  empty: {
    apart: (p: { field: string }) => p.field,
    says: (p: { frame: FrameAt; field: string; value: Param }) => `${framed(p.frame)} has an empty or missing ${p.field}`,
    expected: () => "a non-empty string",
    actual: (p: { value: Param }) => show(p.value),
  },
});

export function nonEmptyField(probe: (spec: ProbeSpec) => ProbeView, field: string): Evidence[] | { skip: string } {
  return everyFrame(probe, `carry a non-empty ${field}`, (f) => {
    const v = f.frame[field];
    if (typeof v === "string" && v.length > 0) return kept(f.line);
    // The schema's minLength (and type) at this member is this rule: said once, here.
    return nonEmpty.say(
      "empty",
      { frame: frameAt(f), field, value: (v ?? null) as Param },
      { lines: [f.line], judges: [site(f.line, `/result/frames/${f.index}/${field}`)] },
    );
  });
}

/**
 * Errors answering a budget that fits nothing the provider served: "Nothing
 * fits" is answered with nothing, or budget_unsatisfiable (the error table:
 * "budget too small for any meaningful frame"). That is stated with no
 * keyword, so another error code warns, never fails.
 */
/** Per-answer evidence plus more: the extra keeps a check from skipping when the answers alone gave nothing. */
export function withExtra(score: Evidence[] | { skip: string }, extra: Evidence[]): Evidence[] | { skip: string } {
  return Array.isArray(score) ? [...score, ...extra] : extra.length > 0 ? extra : score;
}

/** Why a query's budget fits nothing: max_frames 0, or a max_tokens below the cheapest frame served. */
export type FitsNothing = { [k: string]: Param; member: "max_frames"; max: 0 } | { [k: string]: Param; member: "max_tokens"; max: number; cheapest: number };

function fitsNothingWords(p: FitsNothing): string {
  return p.member === "max_frames" ? "max_frames 0 admits no frame" : `max_tokens ${p.max} is below the cheapest frame served (${p.cheapest})`;
}

type Refused = { step: string; fits: FitsNothing; error: Param };

/** The words of nothingFits (B1, B4). */
export const fitting = findings({
  "nothing-fits-unsatisfiable": {
    ok: true,
    says: (p: { step: string; fits: FitsNothing }) => `step ${p.step}: ${fitsNothingWords(p.fits)}, answered budget_unsatisfiable`,
  },
  "nothing-fits-other-error": {
    cites: "budget too small for any meaningful frame",
    level: "NONE",
    apart: ["error"],
    says: (p: Refused) =>
      `step ${p.step}: ${fitsNothingWords(p.fits)}, answered error ${show(p.error)}; the error table names budget_unsatisfiable for a budget too small for any frame (no keyword: a warning)`,
    expected: () => "no frames, or error budget_unsatisfiable",
    actual: (p: Refused) => `error ${show(p.error)}`,
  },
});

export function nothingFits(xs: Exchange[], fitsNothing: (x: Exchange) => FitsNothing | undefined): Evidence[] {
  const out: Evidence[] = [];
  for (const x of xs) {
    if (x.answer?.env.type !== "error") continue;
    const fits = fitsNothing(x);
    if (fits === undefined) continue;
    const lines = [x.query.n, x.answer.n];
    out.push(
      x.answer.env.code === "budget_unsatisfiable"
        ? fitting.say("nothing-fits-unsatisfiable", { step: x.step, fits }, { lines })
        : fitting.say("nothing-fits-other-error", { step: x.step, fits, error: x.answer.env.code as Param }, { lines }),
    );
  }
  return out;
}

/**
 * A discovery query (the one later stimuli are derived from) that got no
 * answer: the rule's stimuli could not be chosen, which is not observed, not
 * a skip. Undefined when it was answered, or never sent.
 */
/** The words of discoveryLost (G3, G4, Q1, S6-as-of). */
export const discovery = findings({
  "discovery-lost": {
    untestable: true,
    says: (p: { line: number; probe: string; step: string; why: string }) =>
      `the discovery query (line ${p.line}, probe ${p.probe}, step ${p.step}) got no answer: ${p.why}, so the stimuli it would have chosen were never sent`,
  },
});

export function discoveryLost(p: ProbeView, step: string): Evidence[] | undefined {
  const sent = p.sent(step)[0];
  if (!sent || p.answer(step, ["frames", "error"])) return undefined;
  const s = p.silence(step);
  return [discovery.say("discovery-lost", { line: sent.n, probe: p.name, step, why: s.why }, { lines: [sent.n, ...s.lines] })];
}
