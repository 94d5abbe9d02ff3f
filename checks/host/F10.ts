import { noBlocks, readBlocks } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { findings } from "../kit/findings.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { servedParam, servedSaid, type ServedFrame, type ServedParam } from "../kit/served.ts";
import { show } from "../kit/show.ts";
import { budgetTokens } from "../../src/math/budget.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { COMPOSE, markersIn, PROVIDER_PLACEHOLDERS, SCORE_RANGES } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";

/** One provider of the scenario: what it served, and how much of it some block holds. */
interface Side {
  index: number;
  name: string;
  served: ServedFrame[];
  admitted: ServedFrame[];
  top: number;
  /** The least and greatest of its scores (null: none). */
  scores: [number, number] | null;
}

const sideParam = (s: Side): SideParam => ({ name: s.name, held: s.admitted.length, served: s.served.length, scores: s.scores });
/** The frames of a side no block holds. */
const leftOut = (s: Side): LeftOut[] => s.served.filter((f) => !s.admitted.includes(f)).map((f) => ({ frame_id: f.frameId, score: show(f.frame.score, 12) }));

const scoreOf = (f: ServedFrame): number => (typeof f.frame.score === "number" ? f.frame.score : Number.NaN);

/** The least max_frames and max_tokens of the host's queries to any provider of the scenario, where each query states both as counts. */
function asked(v: HostView): Budget | undefined {
  const queries = v.providers().flatMap((p) => p.sent("query"));
  const limits = queries.map((q) => (isObj(q.env.query) ? q.env.query : {}));
  if (queries.length === 0 || !limits.every((l) => Number.isSafeInteger(l.max_frames) && Number.isSafeInteger(l.max_tokens))) return undefined;
  return {
    max_frames: Math.min(...limits.map((l) => l.max_frames as number)),
    max_tokens: Math.min(...limits.map((l) => l.max_tokens as number)),
    lines: queries.map((q) => q.n),
  };
}

/** Why a frame could be left out for a reason of its own: invalid (F1, F2, F3, B3), or the same content or identity as another. */
type OwnReason =
  | { why: "score"; frame: ServedParam; score: string }
  | { why: "token-cost"; frame: ServedParam }
  | { why: "unlabelled"; frame: ServedParam }
  | { why: "duplicate" };
function ownReasons(served: readonly ServedFrame[]): OwnReason[] {
  const out: OwnReason[] = [];
  for (const f of served) {
    const s = scoreOf(f);
    const content = typeof f.frame.content === "string" ? f.frame.content : undefined;
    if (!(s >= 0 && s <= 1)) out.push({ why: "score", frame: servedParam(f), score: show(f.frame.score, 20) });
    if (content === undefined || f.frame.token_cost !== budgetTokens(content)) out.push({ why: "token-cost", frame: servedParam(f) });
    if (typeof f.frame.title !== "string" || f.frame.title === "" || typeof f.frame.citation_label !== "string" || f.frame.citation_label === "")
      out.push({ why: "unlabelled", frame: servedParam(f) });
  }
  const contents = served.map((f) => f.frame.content);
  const ids = served.map((f) => `${f.provider} ${f.frameId} ${f.digest ?? ""}`);
  if (new Set(contents).size < contents.length || new Set(ids).size < ids.length) out.push({ why: "duplicate" });
  return out;
}

/** The least max_frames and max_tokens the host asked, and the lines of its queries. */
type Budget = { max_frames: number; max_tokens: number; lines: number[] };
/** Something other than a threshold across providers that may explain a drop. */
type Explanation =
  | { why: "unstated" }
  | { why: "exceeds"; frames: number; cost: number; budget: Budget }
  | OwnReason
  | { why: "one-provider" }
  | { why: "top-n"; held: number; frames: number; cost: number; most: Largest | null };
/** compose's largest block: the line, the frames served there it holds, and their token_cost. */
type Largest = { line: number; frames: number; cost: number };
const explained = (e: Explanation): string =>
  e.why === "unstated"
    ? "its queries do not all state max_frames and max_tokens as counts"
    : e.why === "exceeds"
      ? `the ${count(e.frames, "frame")} (${e.cost} tokens) served exceed what it asked for in one query (max_frames ${e.budget.max_frames}, max_tokens ${e.budget.max_tokens}, ${lineWords(e.budget.lines)})`
      : e.why === "score"
        ? `${servedSaid(e.frame)} has score ${e.score}, outside [0, 1]`
        : e.why === "token-cost"
          ? `${servedSaid(e.frame)} has a token_cost unlike its content's`
          : e.why === "unlabelled"
            ? `${servedSaid(e.frame)} lacks a title or citation_label`
            : e.why === "duplicate"
              ? "two served frames share their content or identity"
              : e.why === "one-provider"
                ? "in compose no block holds frames of both its providers, so the host may compose one provider alone"
                : `the blocks hold the ${count(e.held, "frame")} scoring highest of both answers, and ${e.most ? `compose's largest block (line ${e.most.line}) holds ${count(e.most.frames, "frame")} (${e.most.cost} tokens)` : "compose shows no block"}, not the ${e.frames} (${e.cost} tokens) served here: a host that keeps the global top ${e.held} by raw score, a ranking §7 permits when the host says so ("ranking by raw score and saying so. All are permitted"), leaves out the same frames; only a cut at a score value applied across providers is a threshold`;

/** One provider of the scenario in a finding: its name, how many of its frames some block holds, of how many, and its scores' range (null: none). */
type SideParam = { name: string; held: number; served: number; scores: [number, number] | null };
const rangeSaid = (s: SideParam): string => (s.scores ? `scores ${s.scores[0]}–${s.scores[1]}` : "no score");
const heldSaid = (s: SideParam): string => `${s.held} of the ${count(s.served, "frame")} of ${s.name} (${rangeSaid(s)})`;
/** A frame some block leaves out: its id, and its score as served. */
type LeftOut = { frame_id: string; score: string };
const leftOutSaid = (fs: readonly LeftOut[]): string => fs.map((f) => `${show(f.frame_id, 40)} (score ${f.score})`).join(", ");
/** Room for all by the host's own queries: what it asked, and what was served. */
type Room = { budget: Budget | null; frames: number; cost: number };
const roomSaid = (r: Room): string =>
  r.budget
    ? `room for all by its own queries (max_frames ${r.budget.max_frames}, max_tokens ${r.budget.max_tokens}; ${count(r.frames, "frame")}, ${r.cost} tokens served)`
    : "";
const whereSaid = (p: { blocks: number[] }): string => `scenario score-ranges, ${lineWords(p.blocks)}`;

const F = findings({
  "none-held": {
    cites: "A host MAY apply a threshold to a single provider's scores, where the ordering is meaningful",
    level: "MAY",
    says: (p: { blocks: number[]; frames: number }) =>
      `${whereSaid(p)}: the host's blocks hold none of the ${count(p.frames, "frame")} its two providers served, though in compose they hold frames: every frame of both providers left out, which a threshold on each provider's own scores may do as well as one across them, so whether it applies a score threshold across providers cannot be seen`,
    expected: () => "a block holding the frames served",
    actual: () => "no served frame in any block",
  },
  "all-held": {
    ok: true,
    says: (p: { blocks: number[]; frames: number; sides: SideParam[] }) =>
      `${whereSaid(p)}: the blocks hold all ${count(p.frames, "frame")} of both providers, ${p.sides.map(heldSaid).join(" and ")}`,
  },
  threshold: {
    says: (p: { blocks: number[]; low: SideParam; high: SideParam; left_out: LeftOut[]; room: Room; most: Largest }) =>
      `${whereSaid(p)}: the blocks hold none of ${p.low.name}'s ${count(p.low.served, "frame")} (${leftOutSaid(p.left_out)}) and ${heldSaid(p.high)}, with ${roomSaid(p.room)}, every frame valid and none a duplicate, and the host composes two providers in compose, whose block at line ${p.most.line} holds ${count(p.most.frames, "frame")} (${p.most.cost} tokens), so no cap of its own on frames or tokens left them out: its frames were dropped for their scores alone, a threshold applied across providers; score is provider-local and ordinal, so cut one provider's scores only against its own`,
    expected: (p: { low: SideParam; high: SideParam }) => `${p.low.name}'s frames in the block beside ${p.high.name}'s`,
    actual: (p: { low: SideParam }) => `0 of ${p.low.served} of ${p.low.name}'s frames composed`,
  },
  "drop-explained": {
    cites: "A host MUST NOT apply a cross-provider score threshold",
    reading:
      'something other than a threshold across providers may explain the drop (the budget the host asked for, an invalid or duplicate frame, a host that composes one provider alone, a host keeping its own top N by raw score), and ranking by raw score is a policy §7 permits ("ranking by raw score and saying so. All are permitted"), so it never warns',
    level: "MAY",
    says: (p: { blocks: number[]; low: SideParam; high: SideParam; explanations: Explanation[] }) =>
      `${whereSaid(p)}: the blocks hold none of ${p.low.name}'s ${count(p.low.served, "frame")} (${rangeSaid(p.low)}) and ${heldSaid(p.high)}, but something other than a threshold across providers may explain it: ${p.explanations.map(explained).join("; ")}`,
  },
  "high-dropped": {
    cites: "A host MUST NOT apply a cross-provider score threshold",
    reading:
      'a cut keeping scores below a value (scores taken for distances), applied across providers, leaves out the highest-scoring provider and keeps the other, and so may a policy §7 permits ("a reranker it controls, an explicit trust weighting it can defend"), so the run cannot tell a threshold from a permitted ranking: it warns',
    level: "NONE",
    says: (p: { blocks: number[]; low: SideParam; high: SideParam; left_out: LeftOut[]; room: Room }) =>
      `${whereSaid(p)}: the blocks hold none of ${p.high.name}'s ${count(p.high.served, "frame")} (${leftOutSaid(p.left_out)}), though they score highest, and ${heldSaid(p.low)}${p.room.budget ? `, with ${roomSaid(p.room)}` : ""}: a cut keeping scores below a value across providers (scores taken for distances) does that, and so may a reranker or trust weighting of the host's own, which §7 permits; score is provider-local and ordinal, higher ranking first within one provider`,
    expected: (p: { high: SideParam }) => `${p.high.name}'s frames in the block`,
    actual: (p: { high: SideParam }) => `0 of ${p.high.served} composed`,
  },
  "partial-cut": {
    cites: "A host MAY apply a threshold to a single provider's scores, where the ordering is meaningful",
    level: "MAY",
    says: (p: { blocks: number[]; sides: SideParam[]; partial: { name: string; left_out: LeftOut[] }[]; explanations: Explanation[] }) =>
      `${whereSaid(p)}: the blocks hold ${p.sides.map(heldSaid).join(" and ")}; left out: ${p.partial.map((s) => `${leftOutSaid(s.left_out)} of ${s.name}`).join("; ")}. A threshold on one provider's own scores is permitted, and a partial cut cannot be told from one${p.explanations.length > 0 ? `; ${p.explanations.map(explained).join("; ")}` : ""}`,
  },
});

/** The marker a served frame's content holds, where it holds exactly one. */
const markerOf = (f: ServedFrame): string | undefined => {
  const markers = typeof f.frame.content === "string" ? markersIn(f.frame.content) : [];
  return markers.length === 1 ? markers[0] : undefined;
};

/**
 * The frames served, each once: a frame served again, alike in provider,
 * identity and content (the answer to a host's next query re-serving it),
 * is the same frame, not one more to hold or to budget for.
 */
function distinct(served: readonly ServedFrame[]): ServedFrame[] {
  const seen = new Set<string>();
  return served.filter((f) => {
    const key = JSON.stringify([f.provider, f.frameId, f.digest ?? null, f.frame.content ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** compose's block holding the most of the frames served there (by count, then token_cost), or null where none holds any. */
function largest(v: HostView): Largest | null {
  if (!v.ran) return null;
  let best: Largest | null = null;
  for (const b of readBlocks(v).blocks) {
    const frames = distinct(b.frames.map((f) => f.frame));
    const cost = frames.reduce((a, f) => a + (typeof f.frame.token_cost === "number" ? f.frame.token_cost : 0), 0);
    if (!best || frames.length > best.frames || (frames.length === best.frames && cost > best.cost)) best = { line: b.n, frames: frames.length, cost };
  }
  return best;
}

/**
 * Whether the frames held are those a global top-N by raw score keeps, and
 * nothing shows the host composes more: no block of compose holds as many
 * frames and tokens as were served here. A host keeping its own top N (or its
 * own token budget) by raw score, a ranking §7 permits, then leaves out the
 * same frames as a threshold would.
 */
function topN(served: readonly ServedFrame[], admitted: readonly ServedFrame[], cost: number, compose: HostView): Explanation | undefined {
  const ranked = [...served].sort((a, b) => scoreOf(b) - scoreOf(a));
  const n = admitted.length;
  if (n === 0 || !ranked.slice(0, n).every((f) => admitted.includes(f)) || (ranked[n] && scoreOf(ranked[n]!) === scoreOf(ranked[n - 1]!))) return undefined;
  const most = largest(compose);
  if (most && most.frames >= served.length && most.cost >= cost) return undefined;
  return { why: "top-n", held: n, frames: served.length, cost, most };
}

/** Whether the host composes the frames of two providers at all: compose's blocks hold frames of both. */
function composesBoth(v: HostView): boolean {
  if (!v.ran) return false;
  const held = new Set(readBlocks(v).blocks.flatMap((b) => b.frames.map((f) => f.frame.provider)));
  return held.size >= 2;
}

/**
 * @anchor F10
 * Stimulus: scenario score-ranges: two providers serve two doc frames each,
 * alike in kind, size and shape, all valid, no two alike in id or content,
 * each content holding a marker of its own; only the scores differ, 0.95 and
 * 0.40 from the first (cgp-conform-wiki), 0.009 and 0.001 from the second
 * (cgp-conform-code), each an honest ranking of its own frames. A frame is
 * admitted where its marker is in some block the host wrote to {context}
 * (CGP_CONTEXT_PATH) there; compose is read as the counterpart, showing that
 * the host composes two providers' frames at all.
 * Fails: every frame the low-scoring provider served is in no block, while
 * some of the other's are, where nothing else explains it: both answers fit
 * the smallest max_frames and max_tokens the host itself asked in any query
 * there (room for all by its own budget), no frame is invalid (score in
 * [0, 1], token_cost, title, citation_label) and none shares its content or
 * identity with another (so de-duplication is not involved), and compose's
 * blocks hold frames of both its providers, and some block of compose holds
 * at least as many frames and tokens as score-ranges served (so no cap of
 * the host's own on frames or tokens explains the cut). Only a cut at a score
 * value applied across providers then drops a whole provider for being on a
 * smaller scale. Readings. Where something else may explain that drop (the
 * answers exceed what the host asked for, a frame is invalid, compose shows
 * no block with two providers' frames), it informs. So does a host that
 * keeps the global top N by raw score: the frames held are the N scoring
 * highest, and no block of compose holds as many frames and tokens as were
 * served here. That ranks by raw score, which §7 permits when the host says
 * so ("ranking by raw score and saying so. All are permitted"), and is no
 * threshold: only a cut at a score value is. It never warns. A partial drop (some of
 * a provider's frames left out, room for all) informs too: "A host MAY apply
 * a threshold to a single provider's scores", and a cut between two of one
 * provider's scores cannot be told from it. The high-scoring provider's
 * frames all left out while the other's are in warns: a cut keeping scores
 * below a value across providers (scores taken for distances) does that, and
 * so may a reranker or trust weighting §7 permits, so the run cannot tell a
 * forbidden threshold from a permitted policy (rule 5: it warns). A
 * frame is in the blocks where its marker is in any block of the scenario,
 * whichever answer served it; a frame served again (alike in provider,
 * identity and content: the answer to a host's next query) is one frame,
 * counted once, held or left out, and budgeted once. A host whose blocks
 * hold no frame of the scenario while compose's hold frames informs: every
 * frame of both providers left out is what a threshold on each provider's
 * own scores may do too, so no threshold across them can be seen, and that
 * is never a pass. Reading: where no block, here or in compose, holds any
 * frame's content (a host that writes blocks of something else), nothing of
 * what it composes can be seen, and F10 is a MUST NOT with no word on
 * composing at all, so it skips, naming why, as CR1-order and CR1-render do
 * (it used to warn, asking for a block of what the providers serve). Skip
 * too where the host wrote no context block, naming {context}, or where a
 * provider served it nothing (its query narrowed kinds past doc).
 * The other sentences of F10 (presenting a raw score as a cross-provider
 * measure, documenting an order by raw score) are not visible in a block.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "F10",
  title: "The host applies no score threshold across providers",
  level: "MUST",
  requirement:
    "score is provider-local and ordinal — this spec defines no shared scale. A host MUST NOT apply a cross-provider score threshold, and MUST NOT present a raw score as a cross-provider measure of relevance.",
  scenarios: [SCORE_RANGES, COMPOSE],
  needs: { writes: ["context"] },
  score(input) {
    const v = input.scenario(SCORE_RANGES);
    if (!v.ran) return { skip: `scenario score-ranges did not run: ${v.record?.skipped ?? "it was not selected"}` };
    const r = readBlocks(v);
    if (r.written.length === 0) return { skip: noBlocks(input, [v], "score-ranges") };
    const compose = input.scenario(COMPOSE);
    // Blocks that hold no frame content, here and in compose: nothing of what the host composes can be seen, so nothing of a threshold.
    if (r.blocks.length === 0 && readBlocks(compose).blocks.length === 0)
      return { skip: noBlocks(input, compose.ran ? [v, compose] : [v], compose.ran ? "score-ranges, compose" : "score-ranges") };
    const placeholders = PROVIDER_PLACEHOLDERS[input.transport];
    // A frame is in the blocks where its marker is in any block of the scenario, whichever answer served it.
    const inBlocks = new Set(r.blocks.flatMap((b) => b.frames.map((f) => f.marker)));
    const served = distinct(r.served);
    const admitted = served.filter((f) => {
      const m = markerOf(f);
      return m !== undefined && inBlocks.has(m);
    });
    const sides: Side[] = v.providers().map((p, index) => {
      const mine = served.filter((f) => f.provider === index);
      const scores = mine.map(scoreOf).filter((s) => !Number.isNaN(s));
      return {
        index,
        name: mine[0]?.name ?? placeholders[index]!,
        served: mine,
        admitted: mine.filter((f) => admitted.includes(f)),
        top: scores.length > 0 ? Math.max(...scores) : Number.NaN,
        scores: scores.length > 0 ? [Math.min(...scores), Math.max(...scores)] : null,
      };
    });
    const empty = sides.find((s) => s.served.length === 0);
    if (empty)
      return {
        skip: `scenario score-ranges: ${placeholders[empty.index]} served the host no frame (it sent ${count(v.providers()[empty.index]!.sent("query").length, "query", "queries")}), so there is no second scale to compare`,
      };
    const blocks = r.written.map((b) => b.n);
    const answerLines = [...new Set(r.served.map((f) => f.n))];
    const lines = [...blocks, ...answerLines];
    if (admitted.length === 0) return [F.say("none-held", { blocks, frames: served.length }, { lines })];
    const [low, high] = [...sides].sort((a, b) => a.top - b.top) as [Side, Side];
    if (sides.every((s) => s.admitted.length === s.served.length))
      return [F.say("all-held", { blocks, frames: served.length, sides: sides.map(sideParam) }, { lines })];
    const budget = asked(v);
    const cost = served.reduce((a, f) => a + (typeof f.frame.token_cost === "number" ? f.frame.token_cost : 0), 0);
    const explanations: Explanation[] = [];
    if (!budget) explanations.push({ why: "unstated" });
    else if (served.length > budget.max_frames || cost > budget.max_tokens) explanations.push({ why: "exceeds", frames: served.length, cost, budget });
    explanations.push(...ownReasons(served).slice(0, 2));
    if (!composesBoth(compose)) explanations.push({ why: "one-provider" });
    const ranking = topN(served, admitted, cost, compose);
    if (ranking) explanations.push(ranking);
    const room: Room = { budget: budget ?? null, frames: served.length, cost };
    if (low.admitted.length === 0 && high.admitted.length > 0) {
      const most = largest(compose);
      if (explanations.length === 0 && most)
        return [
          F.say("threshold", { blocks, low: sideParam(low), high: sideParam(high), left_out: leftOut(low), room, most }, { lines: [...lines, most.line] }),
        ];
      return [F.say("drop-explained", { blocks, low: sideParam(low), high: sideParam(high), explanations }, { lines })];
    }
    if (high.admitted.length === 0 && low.admitted.length > 0)
      return [F.say("high-dropped", { blocks, low: sideParam(low), high: sideParam(high), left_out: leftOut(high), room }, { lines })];
    const partial = sides.filter((s) => s.admitted.length < s.served.length).map((s) => ({ name: s.name, left_out: leftOut(s) }));
    return [F.say("partial-cut", { blocks, sides: sides.map(sideParam), partial, explanations }, { lines })];
  },
});
