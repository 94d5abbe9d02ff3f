import type { Evidence } from "../kit/check.ts";
import { noBlocks, readBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, lineWords, notRun } from "../kit/host-evidence.ts";
import { hostProviderIds, reports } from "../kit/served.ts";
import { show } from "../kit/show.ts";
import { BULK_FRAME_TOKENS_MAX, BULK_FRAMES } from "../../src/protocol/adversarial.ts";
import { providerName } from "../../src/protocol/caps.ts";
import { framesIn, isObj } from "../../src/protocol/envelope.ts";
import { BUDGET_BREAKER, LOCK_STEP, PROVIDER_PLACEHOLDERS } from "../../src/protocol/host-scenarios.ts";
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
function report(
  v: HostView,
  after: number,
  name: string | undefined,
  honestId: string | undefined,
  contents: readonly string[],
): { words: string; n: number } | undefined {
  const line = v.output().find((e) => e.n > after && typeof e.line === "string" && namesDrop(e.line, name));
  if (line) return { words: `${line.dir} line ${line.n}: ${show(line.line, 100)}`, n: line.n };
  for (const b of v.context()) {
    if (b.n <= after || b.text === undefined) continue;
    const own = outsideContent(b.text, contents);
    if (!namesDrop(own, name)) continue;
    const m = BREACH.exec(own) ?? DROPPED.exec(own)!;
    const from = Math.max(0, m.index - 40);
    return { words: `the block at line ${b.n}, outside the frames' content: ${show(own.slice(from, m.index + 60), 100)}`, n: b.n };
  }
  for (const { n, report } of reports(v)) {
    const providers = Array.isArray(report.providers) ? report.providers.filter(isObj) : [];
    const entry = providers.find(
      (p) => Number.isSafeInteger(p.frames_rejected) && (p.frames_rejected as number) > 0 && (p.provider_id === name || p.provider_id !== honestId),
    );
    if (entry) return { words: `usage report line ${n}: frames_rejected ${entry.frames_rejected} for ${show(entry.provider_id, 40)}`, n };
  }
  return undefined;
}

/**
 * @anchor B2
 * Stimulus: scenario budget-breaker, two providers with room for all their
 * frames: the first ({provider}, cgp-conform-bulk) answers each query with as
 * many frames as max_frames allows, up to 3, whose summed token_cost exceeds
 * that query's max_tokens (B1) while all but one would fit, each frame's
 * token_cost exact (B3), of a kind asked for (Q1), within max_frames (B4): B1
 * is its one fault. The second ({provider2}, cgp-conform-docs) serves two
 * small frames within any budget. And scenario lock-step, to tell a host that
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
 * not a pass). Skip when the host wrote no block in either scenario, saying
 * which placeholder would enable the check.
 */
export default defineHostCheck({
  anchor: "B2",
  title: "The host drops, and reports, the frames of a provider over budget",
  level: "MUST",
  requirement:
    "A host MUST drop, with a loud report, the frames of any provider violating B1 — never silently truncate them. " +
    "(B1: The sum of token_cost across returned frames MUST NOT exceed the query's max_tokens.)",
  scenarios: [BUDGET_BREAKER, LOCK_STEP],
  score(input) {
    const v = input.scenario(BUDGET_BREAKER);
    const base = input.scenario(LOCK_STEP);
    if (!v.ran) return { skip: notRun(v) };
    const [breaker, honest] = v.providers();
    const who = PROVIDER_PLACEHOLDERS[input.transport];
    const name = providerName(breaker!.ack()?.env);
    const them = `${name ?? "the first provider"} (${who[0]})`;
    const all = audited(breaker!);
    const over = all.filter((a) => a.spent > a.max);
    if (over.length === 0) {
      const queries = breaker!.sent("query");
      // As U2 reads a stimulus that never reached the host: its query refused (an error answer) or never sent, B1 was never broken for it.
      if (queries.length === 0 || all.length === 0)
        return {
          skip: `scenario ${v.name}: ${queries.length === 0 ? `the host sent ${them} no query` : `${them} answered none of the host's ${count(queries.length, "query", "queries")} (${lineWords(queries.map((q) => q.n))}) with frames`} (it ${describeEnding(v.ending())}), so no answer over budget reached it`,
        };
      return {
        skip: `scenario ${v.name}: the host asked ${them} for max_tokens ${all.map((a) => a.max).join(", ")}, and its answers (${lineWords(all.map((a) => a.answer.n))}) kept within it: it serves at most ${BULK_FRAMES} × ${BULK_FRAME_TOKENS_MAX} tokens, so B1 was never broken and B2 had nothing to act on`,
      };
    }
    const first = over[0]!;
    const breach = `its answer (line ${first.answer.n}) cost ${first.spent} tokens in ${count(first.frames, "frame")}, over the query's max_tokens ${first.max} (line ${first.query.n})`;
    const breachLines = [first.answer.n, first.query.n];
    const { blocks, served } = readBlocks(v);
    const out: Evidence[] = [];
    const theirs = new Set(served.filter((f) => f.provider === 0).map((f) => f.frameId));
    let admitted = false;
    for (const b of blocks) {
      const kept = b.frames.filter((f) => f.frame.provider === 0);
      const others = b.frames.filter((f) => f.frame.provider !== 0);
      if (others.length > 0) admitted = true;
      if (kept.length === 0) continue;
      const ids = [...new Set(kept.map((f) => f.frame.frameId))];
      const whole = ids.length >= theirs.size;
      out.push({
        ok: false,
        message: whole
          ? `scenario ${v.name}, line ${b.n}: the block composes all ${count(ids.length, "frame")} of ${them}, and ${breach}: the frames of a provider violating B1 must be dropped, with a loud report`
          : `scenario ${v.name}, line ${b.n}: the block composes ${ids.length} of the ${theirs.size} frames of ${them} (${ids.map((i) => show(i, 40)).join(", ")}), and ${breach}: keeping what fits truncates a provider that broke B1, which B2 forbids; drop all of its frames, and report it`,
        expected: `none of ${name ?? "its"} frames in any block`,
        actual: whole ? `all ${ids.length} composed` : `${ids.length} of ${theirs.size} composed (truncated)`,
        lines: [b.n, ...breachLines],
      });
    }
    if (out.length > 0) return out;
    const otherName = providerName(honest?.ack()?.env) ?? "the second provider";
    if (!admitted) {
      const wrote = v.context().length + base.context().length;
      if (wrote === 0 && !base.ran) return { skip: noBlocks(input, [v], v.name) };
      if (wrote === 0) return { skip: noBlocks(input, [v, base], `${v.name}, ${LOCK_STEP.name}`) };
      return [
        {
          ok: false,
          level: "NONE",
          message: `scenario ${v.name}: no block composes a frame of ${them}, whose ${breach.replace(/^its /, "")}, and none composes those of ${otherName} (${who[1]}) either, which kept within budget: the host admitted nothing, so that it drops only the provider that broke B1 cannot be shown`,
          expected: `${otherName}'s frames in a block, ${name ?? "the first provider"}'s in none`,
          actual: `${count(v.context().length, "line")} in {context} here, ${count(base.context().length, "line")} in ${LOCK_STEP.name}, none with ${otherName}'s frames`,
          lines: [...breachLines, ...v.context().map((c) => c.n)],
        },
      ];
    }
    const contents = served.map((f) => f.frame.content).filter((c): c is string => typeof c === "string");
    const shown = report(v, first.answer.n, name, hostProviderIds(v, served).get(1) ?? otherName, contents);
    const composed = blocks.filter((b) => b.frames.length > 0).map((b) => b.n);
    const kept = `no block composes a frame of ${them}, whose ${breach.replace(/^its /, "")}, and the frames of ${otherName} (${who[1]}) are composed (${lineWords(composed)})`;
    if (shown)
      return [
        {
          ok: true,
          message: `scenario ${v.name}: ${kept}; the host reported the drop (${shown.words})`,
          lines: [...new Set([...breachLines, ...composed, shown.n])],
        },
      ];
    return [
      {
        ok: false,
        level: "NONE",
        message: `scenario ${v.name}: ${kept}, but nothing the run can see reports the drop: no stdout or stderr line after the answer, and no block outside the frames' content, names B1, B2, a budget exceeded or lied about, a breach, or max_tokens or ${name ?? "the provider"} beside a drop, and no usage report counts frames_rejected for it (a budget summary is no report of a drop); B2 asks for a loud report (one made where the run cannot see it, a log file or an API, is not judged)`,
        expected: "a report of the drop: a line the host prints, words of its own in its block, or frames_rejected in its usage report",
        actual: "none seen",
        lines: [...breachLines, ...composed],
      },
    ];
  },
});
