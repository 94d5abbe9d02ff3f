import type { Evidence } from "../kit/check.ts";
import { differenceWords, firstDifference, frameSet, noBlocks, readBlocks, type ReadBlock } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { servedParam, servedSaid, type ServedParam } from "../kit/served.ts";
import { show } from "../kit/show.ts";
import { COMPOSE, COMPOSE_ONE, COMPOSE_ONE_REORDERED, COMPOSE_ONE_RESCORED, COMPOSE_REORDERED, COMPOSE_RESCORED } from "../../src/protocol/host-scenarios.ts";

/** The scenarios of one kind: the base, the same frames in other arrival orders (the control), and with other scores. Several providers' (a host naming {provider2}), and one provider's. */
type Kind = { base: string; reordered: string; rescored: string };
const KINDS: Kind[] = [
  { base: COMPOSE.name, reordered: COMPOSE_REORDERED.name, rescored: COMPOSE_RESCORED.name },
  { base: COMPOSE_ONE.name, reordered: COMPOSE_ONE_REORDERED.name, rescored: COMPOSE_ONE_RESCORED.name },
];
const READS = [COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED, COMPOSE_ONE, COMPOSE_ONE_REORDERED, COMPOSE_ONE_RESCORED];

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

/** What shows the host renders one set of frames alike every time: the reordered scenario's block, or one scenario's own blocks. */
type Steady = { by: "control"; control: number; reordered: string; base: string } | { by: "own"; scenario: string; blocks: number[] };
const steadySaid = (s: Steady): string =>
  s.by === "control"
    ? `${s.reordered}'s block (line ${s.control}) is ${s.base}'s byte for byte`
    : `${s.scenario}'s own ${s.blocks.length} blocks (lines ${s.blocks.join(", ")}) are byte-identical to each other`;

/** What shows the host renders one set of frames alike every time, if anything does. */
function steadiness(k: Kind, i: number, a: ReadBlock, base: ReadBlock[], rescored: ReadBlock[], control: ReadBlock[]): Steady | undefined {
  const c = control[i];
  if (c !== undefined && frameSet(c) === frameSet(a) && c.text === a.text) return { by: "control", control: c.n, reordered: k.reordered, base: k.base };
  for (const [name, blocks] of [
    [k.base, base],
    [k.rescored, rescored],
  ] as const)
    if (blocks.length >= 2 && blocks.every((x) => x.text === blocks[0]!.text)) return { by: "own", scenario: name, blocks: blocks.map((x) => x.n) };
  return undefined;
}

/** The base scenario's block and the rescored one's, by line (compose and compose-rescored, or compose-one and compose-one-rescored). */
type Pair = { base: string; other: string; compose: number; rescored: number };
const pair = (p: Pair): string => `scenarios ${p.base} (line ${p.compose}) and ${p.other} (line ${p.rescored})`;
/** The two blocks compose the same frames and differ: how many, and where they first part (the text either side, as written). */
type Differ = Pair & { frames: number; difference: { at: number; a: string; b: string } };
const same = (p: Differ): string =>
  `${pair(p)} compose the same ${count(p.frames, "frame")}, differing in their scores alone, and the blocks differ ${differenceWords(p.difference, p.base, p.other)}`;
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
    says: (p: Differ & { later: Later; frame: ServedParam | null; steady: Steady | null }) =>
      `${same(p)}, ${p.later.before === 0 ? "and there" : `where no score is written, but past ${count(p.later.before, "other place")} where they differ`}, at character ${p.later.at}: ${show(p.later.a, 24)} in ${p.base}, ${show(p.later.b, 24)} in ${p.other}, exactly the scores each serves ${p.frame ? servedSaid(p.frame) : show(p.later.marker, 20)} with: the score reached the bytes whatever else differs${p.steady ? `; ${steadySaid(p.steady)}` : ""}`,
    expected: () => "the same bytes",
    actual: (p: Differ & { later: Later }) => `different from character ${p.difference.at}, and at character ${p.later.at} the frame's score`,
  },
  "bytes-differ": {
    cites: "MUST NOT let a frame's score or token_cost affect the rendered bytes",
    reading: "nothing shows the score is where the blocks part, and something other than the score (a clock, a counter) may have changed the bytes",
    level: "NONE",
    says: (p: Differ & { steady: Steady | null; control: number | null; reordered: string }) =>
      `${same(p)}; ${p.steady ? "no score is written where they part" : p.control !== null ? `${p.reordered}'s block (line ${p.control}) differs from ${p.base}'s too, and neither scenario wrote two blocks of its own byte-identical` : `${p.reordered} has no block to compare`}, so what changed cannot be put down to the score alone`,
    expected: () => "the same bytes",
    actual: (p: Differ) => `different from character ${p.difference.at}`,
  },
});

/** One kind's base blocks against its rescored ones, the first with the first and so on. */
function compareKind(k: Kind, base: ReadBlock[], rescored: ReadBlock[], control: ReadBlock[]): Evidence[] {
  const out: Evidence[] = [];
  for (const [i, a] of base.entries()) {
    const b = rescored[i];
    if (!b) continue;
    const lines = [a.n, b.n];
    const at: Pair = { base: k.base, other: k.rescored, compose: a.n, rescored: b.n };
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
    const steady = steadiness(k, i, a, base, rescored, control);
    const score = steady ? scoreAtDifference(a, b, d.at) : undefined;
    // Both blocks holding, at one place, exactly the two scores one frame was served with is the score in the bytes,
    // whatever else differs (a clock, an order): no steadiness is needed for it.
    const later = score === undefined ? scoreInRegions(a, b) : undefined;
    const differ: Differ = { ...at, frames: a.frames.length, difference: d };
    const frame = later ? a.frames.find((f) => f.marker === later.marker)?.frame : undefined;
    const where = { lines: [...lines, ...(c ? [c.n] : []), ...(frame ? [frame.n] : [])] };
    out.push(
      score !== undefined
        ? F.say("score-rendered", { ...differ, score, steady: steady! }, where)
        : later !== undefined
          ? F.say("score-rendered-later", { ...differ, later, frame: frame ? servedParam(frame) : null, steady: steady ?? null }, where)
          : F.say("bytes-differ", { ...differ, steady: steady ?? null, control: c ? c.n : null, reordered: k.reordered }, where),
    );
  }
  return out;
}

/**
 * @section CR1-render
 * Stimulus: the context blocks the host wrote to {context} (CGP_CONTEXT_PATH)
 * in scenarios compose, compose-rescored and compose-reordered (two
 * providers, run by a host naming {provider2}), and compose-one,
 * compose-one-rescored and compose-one-reordered (one provider, run by every
 * host), each kind read alike, as below for the first; a host is judged on
 * whichever kind it ran, both where it ran both. compose and
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
  needs: { writes: ["context"], work: "one block in compose-one and in compose-one-rescored (or compose and compose-rescored) holding the same frames" },
  follows: "host:CR1-order",
  score(input) {
    const views = READS.map((s) => input.scenario(s)).filter((v) => v.ran);
    const blocks = new Map(views.map((v) => [v.name, readBlocks(v).blocks]));
    const out: Evidence[] = [];
    let written = 0;
    for (const k of KINDS) {
      const base = blocks.get(k.base) ?? [];
      const rescored = blocks.get(k.rescored) ?? [];
      written += base.length + rescored.length;
      out.push(...compareKind(k, base, rescored, blocks.get(k.reordered) ?? []));
    }
    if (out.length === 0 && written > 0)
      return {
        skip: `the host wrote ${KINDS.filter((k) => blocks.has(k.base) || blocks.has(k.rescored))
          .map(
            (k) =>
              `${count((blocks.get(k.base) ?? []).length, "block")} with the frames of ${k.base} and ${count((blocks.get(k.rescored) ?? []).length, "block")} with those of ${k.rescored}`,
          )
          .join("; ")}: no two to compare`,
      };
    if (out.length === 0) return { skip: noBlocks(input, views, views.map((v) => v.name).join(", ") || READS.map((s) => s.name).join(", ")) };
    return out;
  },
});
