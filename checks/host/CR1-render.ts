import type { Evidence } from "../kit/check.ts";
import { differenceWords, firstDifference, frameSet, noBlocks, readBlocks, type ReadBlock } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { servedParam, servedSaid, type ServedParam } from "../kit/served.ts";
import { show } from "../kit/show.ts";
import { COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED } from "../../src/protocol/host-scenarios.ts";

const READS = [COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED];

/** How a score may be written: as served, to two places, and as a 32-bit float read back (0.97 as 0.9700000286102295). */
const written = (score: unknown): string[] => (typeof score === "number" ? [...new Set([String(score), score.toFixed(2), String(Math.fround(score))])] : []);

/** Each block's frames with the score it was served with, by marker. */
const scores = (block: ReadBlock): Map<string, unknown> => new Map(block.frames.map((f) => [f.marker, f.frame.frame.score]));

/** The score a frame was served with, written where the two blocks part, if one is: in either block's text around the difference. */
function scoreAtDifference(a: ReadBlock, b: ReadBlock, at: number): string | undefined {
  const near = (text: string): string => text.slice(Math.max(0, at - 24), at + 24);
  for (const [block, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const window = near(block.text);
    const elsewhere = scores(other);
    for (const f of block.frames) {
      const score = f.frame.frame.score;
      if (elsewhere.get(f.marker) === score) continue;
      const form = written(score).find((w) => window.includes(w));
      if (form !== undefined) return form;
    }
  }
  return undefined;
}

/** Numbers, words, runs of space and single other characters: the pieces two renderings of one format line up by. */
const TOKEN = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_]+|\s+|[^\dA-Za-z_\s]/g;

/**
 * Where the blocks part again after the first place: line the two texts up
 * piece by piece (where they have as many pieces; else nothing is found) and
 * return the first piece that is, in each block, exactly the score its
 * scenario served one frame with (both scores of the same frame, which
 * differ), with how many differing pieces came before it.
 */
function scoreInRegions(a: ReadBlock, b: ReadBlock): { at: number; a: string; b: string; marker: string; before: number } | undefined {
  const ta = a.text.match(TOKEN) ?? [];
  const tb = b.text.match(TOKEN) ?? [];
  if (ta.length !== tb.length) return undefined;
  const theirs = scores(b);
  const pairs = a.frames.flatMap((f) => {
    const [x, y] = [f.frame.frame.score, theirs.get(f.marker)];
    return x === y ? [] : [{ marker: f.marker, here: new Set(written(x)), there: new Set(written(y)) }];
  });
  let at = 0;
  let before = 0;
  for (const [i, x] of ta.entries()) {
    const y = tb[i]!;
    if (x !== y) {
      const pair = pairs.find((p) => p.here.has(x) && p.there.has(y));
      if (pair) return { at, a: x, b: y, marker: pair.marker, before };
      before++;
    }
    at += x.length;
  }
  return undefined;
}

/** What shows the host renders one set of frames alike every time: compose-reordered's block, or one scenario's own blocks. */
type Steady = { by: "control"; control: number } | { by: "own"; scenario: string; blocks: number[] };
const steadySaid = (s: Steady): string =>
  s.by === "control"
    ? `compose-reordered's block (line ${s.control}) is compose's byte for byte`
    : `${s.scenario}'s own ${s.blocks.length} blocks (lines ${s.blocks.join(", ")}) are byte-identical to each other`;

/** What shows the host renders one set of frames alike every time, if anything does. */
function steadiness(i: number, a: ReadBlock, base: ReadBlock[], rescored: ReadBlock[], control: ReadBlock[]): Steady | undefined {
  const c = control[i];
  if (c !== undefined && frameSet(c) === frameSet(a) && c.text === a.text) return { by: "control", control: c.n };
  for (const [name, blocks] of [
    ["compose", base],
    ["compose-rescored", rescored],
  ] as const)
    if (blocks.length >= 2 && blocks.every((x) => x.text === blocks[0]!.text)) return { by: "own", scenario: name, blocks: blocks.map((x) => x.n) };
  return undefined;
}

/** compose's block and compose-rescored's, by line. */
type Pair = { compose: number; rescored: number };
const pair = (p: Pair): string => `scenarios compose (line ${p.compose}) and compose-rescored (line ${p.rescored})`;
/** The two blocks compose the same frames and differ: how many, and where they first part (the text either side, as written). */
type Differ = Pair & { frames: number; difference: { at: number; a: string; b: string } };
const same = (p: Differ): string =>
  `${pair(p)} compose the same ${count(p.frames, "frame")}, differing in their scores alone, and the blocks differ ${differenceWords(p.difference, "compose", "compose-rescored")}`;
/** A later piece where they differ that is, in each block, one frame's two served scores. */
type Later = { at: number; a: string; b: string; marker: string; before: number };

const F = findings({
  "selection-differs": {
    ok: true,
    says: (p: Pair & { frames: number; rescored_frames: number }) =>
      `${pair(p)}: the blocks compose different frames (${count(p.frames, "frame")} and ${count(p.rescored_frames, "frame")}): selection may depend on score, so their bytes are not compared`,
  },
  "byte-identical": {
    ok: true,
    says: (p: Pair & { frames: number }) => `${pair(p)}: the same ${count(p.frames, "frame")}, every score changed, render byte-identically`,
  },
  "score-rendered": {
    says: (p: Differ & { score: string; steady: Steady }) =>
      `${same(p)}, where a score (${show(p.score, 20)}) is written; ${steadySaid(p.steady)}, so nothing but the score changed them`,
    expected: () => "the same bytes",
    actual: (p: Differ) => `different from character ${p.difference.at}`,
  },
  "score-rendered-later": {
    says: (p: Differ & { later: Later; frame: ServedParam | null; steady: Steady }) =>
      `${same(p)}, where no score is written, but past ${count(p.later.before, "other place")} where they differ, at character ${p.later.at}: ${show(p.later.a, 24)} in compose, ${show(p.later.b, 24)} in compose-rescored, exactly the scores each serves ${p.frame ? servedSaid(p.frame) : show(p.later.marker, 20)} with: the score reached the bytes whatever else differs; ${steadySaid(p.steady)}`,
    expected: () => "the same bytes",
    actual: (p: Differ & { later: Later }) => `different from character ${p.difference.at}, and at character ${p.later.at} the frame's score`,
  },
  "bytes-differ": {
    cites: "MUST NOT let a frame's score or token_cost affect the rendered bytes",
    reading: "nothing shows the score is where the blocks part, and something other than the score (a clock, a counter) may have changed the bytes",
    level: "NONE",
    says: (p: Differ & { steady: Steady | null; control: number | null }) =>
      `${same(p)}; ${p.steady ? "no score is written where they part" : p.control !== null ? `compose-reordered's block (line ${p.control}) differs from compose's too, and neither scenario wrote two blocks of its own byte-identical` : "compose-reordered has no block to compare"}, so what changed cannot be put down to the score alone`,
    expected: () => "the same bytes",
    actual: (p: Differ) => `different from character ${p.difference.at}`,
  },
});

/**
 * @section CR1-render
 * Stimulus: the context blocks the host wrote to {context} (CGP_CONTEXT_PATH)
 * in scenarios compose, compose-rescored and compose-reordered. compose and
 * compose-rescored serve the same frames (ids, contents, digests), in the same
 * order, and differ in every frame's score alone; compose-reordered serves
 * compose's frames and scores in other orders. A frame is in a block where its
 * marker is, so nothing is assumed of the host's format. Compared: compose's
 * blocks with compose-rescored's, the first with the first and so on, where
 * both compose the same frames (selection may depend on score; rendering may
 * not). Findings: the same bytes pass. Bytes that differ fail where
 * something shows the host renders one set of frames alike every time, and
 * the score is where they part. That it renders alike: compose-reordered's
 * block is byte-identical to compose's (the order the frames come in changes
 * nothing), or compose's own blocks (two or more, a host querying more than
 * once) are byte-identical to each other, or compose-rescored's are (no clock
 * or counter ticked between them). That the score is where they part: a
 * score as served (written as served, to two places, or as a 32-bit float
 * read back) that the other scenario serves otherwise lies where the blocks
 * first part; or, lining the two texts up piece by piece (numbers, words,
 * single other characters; only where both have as many pieces), a later
 * piece where they differ is, in each block, exactly the score its scenario
 * serves one frame with (the same frame's two scores). Reading: the places
 * before it are not judged (a clock that ticked between the scenarios, an
 * as_of to the second, is no fault); only the score is, and an honest host
 * writes no number that is, in both blocks at one place, exactly one frame's
 * two served scores. Otherwise differing bytes warn: what changed cannot be
 * put down to the score alone (a clock, a counter). token_cost is derived
 * from content (B3), which does not change, so a provider keeping B3 cannot
 * vary it: the score is what is varied. Skip when the host wrote no block
 * there, saying which placeholder would enable the check.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "CR1-render",
  title: "The host's rendered bytes do not depend on score or token_cost",
  level: "MUST",
  requirement:
    "A host that composes a set of frames into a single context block: […] MUST NOT let a frame's score or token_cost affect the rendered bytes — relevance is query-dependent and cost is derived, so a re-query that only re-ranks the same frames would otherwise bust the prefix for no content change (context-reuse §1).",
  scenarios: READS,
  follows: "host:CR1-order",
  score(input) {
    const views = READS.map((s) => input.scenario(s)).filter((v) => v.ran);
    const blocks = new Map(views.map((v) => [v.name, readBlocks(v).blocks]));
    const base = blocks.get(COMPOSE.name) ?? [];
    const rescored = blocks.get(COMPOSE_RESCORED.name) ?? [];
    const control = blocks.get(COMPOSE_REORDERED.name) ?? [];
    const out: Evidence[] = [];
    for (const [i, a] of base.entries()) {
      const b = rescored[i];
      if (!b) continue;
      const lines = [a.n, b.n];
      const at: Pair = { compose: a.n, rescored: b.n };
      if (frameSet(a) !== frameSet(b)) {
        out.push(F.say("selection-differs", { ...at, frames: a.frames.length, rescored_frames: b.frames.length }, { lines }));
        continue;
      }
      if (a.text === b.text) {
        out.push(F.say("byte-identical", { ...at, frames: a.frames.length }, { lines }));
        continue;
      }
      const d = firstDifference(a.text, b.text);
      const c = control[i];
      const steady = steadiness(i, a, base, rescored, control);
      const score = steady ? scoreAtDifference(a, b, d.at) : undefined;
      const later = steady && score === undefined ? scoreInRegions(a, b) : undefined;
      const differ: Differ = { ...at, frames: a.frames.length, difference: d };
      const frame = later ? a.frames.find((f) => f.marker === later.marker)?.frame : undefined;
      const where = { lines: [...lines, ...(c ? [c.n] : []), ...(frame ? [frame.n] : [])] };
      out.push(
        score !== undefined
          ? F.say("score-rendered", { ...differ, score, steady: steady! }, where)
          : later !== undefined
            ? F.say("score-rendered-later", { ...differ, later, frame: frame ? servedParam(frame) : null, steady: steady! }, where)
            : F.say("bytes-differ", { ...differ, steady: steady ?? null, control: c ? c.n : null }, where),
      );
    }
    if (out.length === 0 && base.length + rescored.length > 0)
      return {
        skip: `the host wrote ${count(base.length, "block")} with the frames of compose and ${count(rescored.length, "block")} with those of compose-rescored: no two to compare`,
      };
    if (out.length === 0) return { skip: noBlocks(input, views, READS.map((s) => s.name).join(", ")) };
    return out;
  },
});
