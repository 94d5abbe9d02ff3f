import type { Evidence } from "../kit/check.ts";
import { noBlocks, readBlocks } from "../kit/blocks.ts";
import { defineHostCheck, type HostScoreInput } from "../kit/host.ts";
import { count, lineWords, notRun } from "../kit/host-evidence.ts";
import { hostProviderIds, reports, type ServedFrame } from "../kit/served.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { BULK_FRAME_TOKENS_MAX, BULK_FRAMES } from "../../src/protocol/adversarial.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { framesIn, isObj } from "../../src/protocol/envelope.ts";
import { BUDGET_BREAKER, BUDGET_BREAKER_ONE, LOCK_STEP, PROVIDER_PLACEHOLDERS } from "../../src/protocol/host-scenarios.ts";
import { describeEnding, type HostEnvelope, type HostView } from "../../src/transcript/host.ts";

/** Words that name a breach of the budget by themselves: B1 or B2, over budget, exceeded, a budget lie, a breach, a violation. */
const BREACH = /\bB[12]\b|over[\s_-]*(the[\s_-]*)?budget|exceed|budget[\s_-]*(lie|breach|overrun)|breach|violat/i;
/** Words that, beside max_tokens or the breaking provider's name, report what was done with it. */
const DROPPED = /\bdrop|reject|discard|exceed|\bover\b|refus|omit|exclud|withh[oe]ld/i;
/** A report in these words: a breach named, or max_tokens or the provider's name beside a drop. */
const namesDrop = (text: string, name: string | undefined): boolean =>
  BREACH.test(text) || (DROPPED.test(text) && (/max_tokens/i.test(text) || (name !== undefined && name !== "" && text.includes(name))));

/** The most of a block read for a report outside the frames' content. */
const BLOCK_READ = 64 * 1024;

/**
 * A block's text with the frames' content taken out (as served, and as a
 * JSON string holds it, and line by line), so what is left is what the host
 * wrote of its own: where a report to the model, or a person, would be.
 */
function outsideContent(text: string, contents: readonly string[]): string {
  let rest = text;
  const pieces = contents.flatMap((c) => [c, JSON.stringify(c).slice(1, -1), ...c.split(/\r?\n/).filter((l) => l.trim().length >= 8)]);
  for (const piece of [...new Set(pieces)].filter((p) => p.length > 0).sort((a, b) => b.length - a.length)) rest = rest.split(piece).join(" ");
  return rest.slice(0, BLOCK_READ);
}

const cost = (f: Record<string, unknown>): number => (Number.isSafeInteger(f.token_cost) && (f.token_cost as number) > 0 ? (f.token_cost as number) : 0);

/** One answer of the breaking provider, with the query it answers and what it cost against that query's max_tokens. */
interface Audited {
  answer: HostEnvelope;
  query: HostEnvelope;
  max: number;
  spent: number;
  frames: number;
}

/** Each frames answer of the provider, against the query it answers: the last one sent before it (with its id, where it carries one). */
function audited(p: HostView): Audited[] {
  const queries = p.sent("query");
  return p.answered("frames").flatMap((answer) => {
    const query = [...queries].reverse().find((q) => q.n < answer.n && (answer.env.id === undefined || q.env.id === answer.env.id));
    const max = isObj(query?.env.query) ? query.env.query.max_tokens : undefined;
    if (!query || !Number.isSafeInteger(max)) return [];
    const frames = framesIn(answer.env);
    return [{ answer, query, max: max as number, spent: frames.reduce((a, f) => a + cost(f), 0), frames: frames.length }];
  });
}

/**
 * What the host showed of the drop: a line it printed after the breach, a
 * block it wrote after it (outside the frames' content), or a usage report
 * counting rejected frames of the breaking provider.
 */
function report(v: HostView, after: number, name: string | undefined, honestId: string | undefined, contents: readonly string[]): Report | undefined {
  const line = v.output().find((e) => e.n > after && typeof e.line === "string" && namesDrop(e.line, name));
  if (line) return { in: "output", stream: line.dir, line: line.n, text: line.line as string };
  for (const b of v.context()) {
    if (b.n <= after || b.text === undefined) continue;
    const own = outsideContent(b.text, contents);
    if (!namesDrop(own, name)) continue;
    const m = BREACH.exec(own) ?? DROPPED.exec(own)!;
    const from = Math.max(0, m.index - 40);
    return { in: "block", line: b.n, text: own.slice(from, m.index + 60) };
  }
  for (const { n, report } of reports(v)) {
    const providers = Array.isArray(report.providers) ? report.providers.filter(isObj) : [];
    const entry = providers.find(
      (p) => Number.isSafeInteger(p.frames_rejected) && (p.frames_rejected as number) > 0 && (p.provider_id === name || p.provider_id !== honestId),
    );
    if (entry) return { in: "usage", line: n, rejected: entry.frames_rejected as number, provider_id: entry.provider_id as Param };
  }
  return undefined;
}

/** A report of the drop the run saw: a line the host printed, its own words in a block (as written), or a usage report's count. */
type Report =
  | { in: "output"; stream: string; line: number; text: string }
  | { in: "block"; line: number; text: string }
  | { in: "usage"; line: number; rejected: number; provider_id?: Param };
const reportSaid = (r: Report): string =>
  r.in === "output"
    ? `${r.stream} line ${r.line}: ${show(r.text, 100)}`
    : r.in === "block"
      ? `the block at line ${r.line}, outside the frames' content: ${show(r.text, 100)}`
      : `usage report line ${r.line}: frames_rejected ${r.rejected} for ${show(r.provider_id, 40)}`;

/**
 * A provider of budget-breaker: its handshake name (null: none) and the
 * placeholder the host named it by; in budget-breaker-one, where one provider
 * answers both within and over budget, the part of its answers meant.
 */
type Who = { name: string | null; placeholder: string; part?: string };
const them = (w: Who): string => `${w.name ?? "the first provider"} (${w.placeholder})${w.part ? `, ${w.part}` : ""}`;
/** The first answer of the breaking provider over its query's max_tokens. */
type Breach = { answer: number; spent: number; frames: number; max: number; query: number };
const breachSaid = (b: Breach): string =>
  `answer (line ${b.answer}) cost ${b.spent} tokens in ${count(b.frames, "frame")}, over the query's max_tokens ${b.max} (line ${b.query})`;
type Broke = { scenario: string; breaker: Who; breach: Breach };
type Composed = Broke & { block: number; ids: string[] };
type Kept = Broke & { other: Who & { name: string }; composed: number[] };
const kept = (p: Kept): string =>
  `no block composes a frame of ${them(p.breaker)}, whose ${breachSaid(p.breach)}, and the frames of ${them(p.other)} are composed (${lineWords(p.composed)})`;

const F = findings({
  "composed-all": {
    says: (p: Composed) =>
      `scenario ${p.scenario}, line ${p.block}: the block composes all ${count(p.ids.length, "frame")} of ${them(p.breaker)}, and its ${breachSaid(p.breach)}: the frames of a provider violating B1 must be dropped, with a loud report`,
    expected: (p: Composed) => `none of ${p.breaker.name ?? "its"} frames in any block`,
    actual: (p: Composed) => `all ${p.ids.length} composed`,
  },
  truncated: {
    says: (p: Composed & { served: number }) =>
      `scenario ${p.scenario}, line ${p.block}: the block composes ${p.ids.length} of the ${p.served} frames of ${them(p.breaker)} (${p.ids.map((i) => show(i, 40)).join(", ")}), and its ${breachSaid(p.breach)}: keeping what fits truncates a provider that broke B1, which B2 forbids; drop all of its frames, and report it`,
    expected: (p: Composed) => `none of ${p.breaker.name ?? "its"} frames in any block`,
    actual: (p: Composed & { served: number }) => `${p.ids.length} of ${p.served} composed (truncated)`,
  },
  "admitted-nothing": {
    cites: "A host MUST drop, with a loud report, the frames of any provider violating B1",
    reading:
      "a host that composed no frame of either provider left out the breaking provider's as well, for all the run can tell for another reason, so neither the drop nor its report can be judged",
    level: "NONE",
    says: (p: Broke & { other: Who & { name: string }; written: number; lock_step_written: number }) =>
      `scenario ${p.scenario}: no block composes a frame of ${them(p.breaker)}, whose ${breachSaid(p.breach)}, and none composes those of ${them(p.other)} either, which kept within budget: the host admitted nothing, so that it drops only ${p.other.part ? "the answer" : "the provider"} that broke B1 cannot be shown${p.other.part ? " (dropping every frame of a provider that broke B1, its honest answers' too, is a reading of B2 as well)" : ""}`,
    expected: (p: Broke & { other: Who & { name: string } }) => `${p.other.name}'s frames in a block, ${p.breaker.name ?? "the first provider"}'s in none`,
    actual: (p: { other: { name: string }; written: number; lock_step_written: number }) =>
      `${count(p.written, "line")} in {context} here, ${count(p.lock_step_written, "line")} in ${LOCK_STEP.name}, none with ${p.other.name}'s frames`,
  },
  "drop-reported": {
    ok: true,
    says: (p: Kept & { report: Report }) => `scenario ${p.scenario}: ${kept(p)}; the host reported the drop (${reportSaid(p.report)})`,
  },
  "drop-unreported": {
    cites: "A host MUST drop, with a loud report, the frames of any provider violating B1",
    reading: "a loud report may be made where the run cannot see it (a log file, an API), so a report not seen is not shown to be missing",
    level: "NONE",
    says: (p: Kept) =>
      `scenario ${p.scenario}: ${kept(p)}, but nothing the run can see reports the drop: no stdout or stderr line after the answer, and no block outside the frames' content, names B1, B2, a budget exceeded or lied about, a breach, or max_tokens or ${p.breaker.name ?? "the provider"} beside a drop, and no usage report counts frames_rejected for it (a budget summary is no report of a drop); B2 asks for a loud report (one made where the run cannot see it, a log file or an API, is not judged)`,
    expected: () => "a report of the drop: a line the host prints, words of its own in its block, or frames_rejected in its usage report",
    actual: () => "none seen",
  },
});

/** One scenario judged: budget-breaker (the breaker {provider}, the honest {provider2}), or budget-breaker-one (one provider, honest in its first answer, over budget in later ones). */
function judgeScenario(input: HostScoreInput, v: HostView, base: HostView): Evidence[] | { skip: string } {
  if (!v.ran) return { skip: notRun(v) };
  const one = v.name === BUDGET_BREAKER_ONE.name;
  const [breaker, honest] = v.providers();
  const who = PROVIDER_PLACEHOLDERS[input.transport];
  const name = providerName(breaker!.ack()?.env);
  const breakerWords = `${name ?? "the first provider"} (${who[0]})`;
  const all = audited(breaker!);
  const over = all.filter((a) => a.spent > a.max);
  if (over.length === 0) {
    const queries = breaker!.sent("query");
    // As U2 reads a stimulus that never reached the host: its query refused (an error answer) or never sent, B1 was never broken for it.
    if (queries.length === 0 || all.length === 0)
      return {
        skip: `scenario ${v.name}: ${queries.length === 0 ? `the host sent ${breakerWords} no query` : `${breakerWords} answered none of the host's ${count(queries.length, "query", "queries")} (${lineWords(queries.map((q) => q.n))}) with frames`} (it ${describeEnding(v.ending())}), so no answer over budget reached it`,
      };
    if (one && all.length === 1)
      return {
        skip: `scenario ${v.name}: the host queried ${breakerWords} once (line ${all[0]!.query.n}), and it answers its first query within budget, breaking B1 only in later answers: a host that queries it again in the same run (after a verify, which leaves its digest-less frame unconfirmed, or as a follow-up) meets the breach`,
      };
    return {
      skip: `scenario ${v.name}: the host asked ${breakerWords} for max_tokens ${all.map((a) => a.max).join(", ")}, and its answers (${lineWords(all.map((a) => a.answer.n))}) kept within it: it serves at most ${BULK_FRAMES} × ${BULK_FRAME_TOKENS_MAX} tokens, so B1 was never broken and B2 had nothing to act on`,
    };
  }
  const first = over[0]!;
  const overLines = new Set(over.map((a) => a.answer.n));
  const within = all.filter((a) => !overLines.has(a.answer.n)).map((a) => a.answer.n);
  const broke: Broke = {
    scenario: v.name,
    breaker: { name: name ?? null, placeholder: who[0], ...(one ? { part: `its ${over.length === 1 ? "answer" : "answers"} over budget` } : {}) },
    breach: { answer: first.answer.n, spent: first.spent, frames: first.frames, max: first.max, query: first.query.n },
  };
  const breachLines = [first.answer.n, first.query.n];
  const { blocks, served } = readBlocks(v);
  const out: Evidence[] = [];
  const breaching = (f: ServedFrame): boolean => f.provider === 0 && overLines.has(f.n);
  const theirs = new Set(served.filter(breaching).map((f) => f.frameId));
  let admitted = false;
  for (const b of blocks) {
    const kept = b.frames.filter((f) => breaching(f.frame));
    if (b.frames.length > kept.length) admitted = true;
    if (kept.length === 0) continue;
    const ids = [...new Set(kept.map((f) => f.frame.frameId))];
    const at: Composed = { ...broke, block: b.n, ids };
    const lines = { lines: [b.n, ...breachLines] };
    out.push(ids.length >= theirs.size ? F.say("composed-all", at, lines) : F.say("truncated", { ...at, served: theirs.size }, lines));
  }
  if (out.length > 0) return out;
  const other = one
    ? { name: name ?? "the provider", placeholder: who[0], part: `its ${within.length === 1 ? "answer" : "answers"} within budget (${lineWords(within)})` }
    : { name: providerName(honest?.ack()?.env) ?? "the second provider", placeholder: who[1] };
  if (!admitted) {
    const wrote = v.context().length + base.context().length;
    if (wrote === 0 && !base.ran) return { skip: noBlocks(input, [v], v.name) };
    if (wrote === 0) return { skip: noBlocks(input, [v, base], `${v.name}, ${LOCK_STEP.name}`) };
    return [
      F.say(
        "admitted-nothing",
        { ...broke, other, written: v.context().length, lock_step_written: base.context().length },
        { lines: [...breachLines, ...v.context().map((c) => c.n)] },
      ),
    ];
  }
  const contents = served.map((f) => f.frame.content).filter((c): c is string => typeof c === "string");
  const shown = report(v, first.answer.n, name, one ? undefined : (hostProviderIds(v, served).get(1) ?? other.name), contents);
  const composed = blocks.filter((b) => b.frames.length > 0).map((b) => b.n);
  const k: Kept = { ...broke, other, composed };
  if (shown) return [F.say("drop-reported", { ...k, report: shown }, { lines: [...new Set([...breachLines, ...composed, shown.line])] })];
  return [F.say("drop-unreported", k, { lines: [...breachLines, ...composed] })];
}

/**
 * @anchor B2
 * Stimulus: scenario budget-breaker, two providers with room for all their
 * frames: the first ({provider}, cgp-conform-bulk) answers each query with as
 * many frames as max_frames allows, up to 3, whose summed token_cost exceeds
 * that query's max_tokens (B1) while all but one would fit, each frame's
 * token_cost exact (B3), of a kind asked for (Q1), within max_frames (B4): B1
 * is its one fault. The second ({provider2}, cgp-conform-docs) serves two
 * small frames within any budget. Scenario budget-breaker-one does the same
 * with one provider ({provider}, cgp-conform-lumpy), run by every host: it
 * declares verify and answers its first query with two small frames (one
 * with a content_digest, which a verify calls valid, one without), and every
 * later query as the breaker does; there the breaking frames are those of
 * its answers over budget, and the honest ones those of its first answer. A
 * host that queries it once never meets the breach: that skips, saying that
 * a query again would. A host is judged on whichever of the two it ran,
 * both where it ran both. And scenario lock-step, to tell a host that
 * composes nothing anywhere from one that composed nothing here. Each frame's
 * content holds a marker of its own, so a frame is in a block where its marker
 * is. Precondition: an answer of the first provider exceeds the max_tokens of
 * the query it answers (the last query sent it before the answer). A host
 * asking 3 × 65536 tokens or more leaves B1 nothing to break, and one that
 * sent it no query, or whose queries it answered with no frames (an error),
 * never met the stimulus: both skip, as host:U2 does for a stimulus that never
 * reached the host.
 * Findings: a block of budget-breaker composing all of the breaking
 * provider's frames fails (they must be dropped), and composing some of them
 * fails as truncation ("never silently truncate them"), whatever was reported.
 * Otherwise, where a block composes the second provider's frames: a pass
 * where the host showed the drop, a warning where nothing the run can see
 * shows it. The loud report is read from what the host printed after the
 * breaking answer, and from the blocks it wrote after it outside the frames'
 * content (a report the model, or a person, is shown is a report a person
 * can see): words that name a breach or a drop (B1 or B2, over budget,
 * exceeded, a budget lie, a breach, a violation; max_tokens or the
 * provider's name beside a drop, a rejection, an omission, a refusal), not a
 * budget merely named (a summary such as "35/4096 budget tokens" reports no
 * drop); or from a usage report counting frames_rejected for that provider
 * (context-reuse §2's shape). Reading: a report may be made where
 * the run cannot see it (a log file, an API), so no visible report warns and
 * never fails. A host that composed neither provider's frames (no block, or
 * none holding them, while it wrote a block in lock-step) admitted nothing:
 * that warns (the second provider's frames are B2's honest counterpart; it is
 * not a pass); in budget-breaker-one it warns too, the drop of every frame
 * of the provider, its honest answer's as well, being a reading of B2 the run
 * cannot tell from admitting nothing. Skip when the host wrote no block in either scenario, saying
 * which placeholder would enable the check.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "B2",
  title: "The host drops, and reports, the frames of a provider over budget",
  level: "MUST",
  requirement:
    "A host MUST drop, with a loud report, the frames of any provider violating B1 — never silently truncate them. " +
    "(B1: The sum of token_cost across returned frames MUST NOT exceed the query's max_tokens.)",
  scenarios: [BUDGET_BREAKER, BUDGET_BREAKER_ONE, LOCK_STEP],
  needs: {
    writes: ["context"],
    work: "in budget-breaker-one, a second query to its one provider (after a verify, or as a follow-up), composing after it; in budget-breaker, a query to both providers. One block is enough",
  },
  score(input) {
    const base = input.scenario(LOCK_STEP);
    const judged = [BUDGET_BREAKER, BUDGET_BREAKER_ONE].map((spec) => judgeScenario(input, input.scenario(spec), base));
    const out = judged.flatMap((j) => ("skip" in j ? [] : j));
    if (out.length > 0) return out;
    return { skip: judged.map((j) => ("skip" in j ? j.skip : "")).join("; ") };
  },
});
