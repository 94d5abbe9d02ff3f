import type { Evidence } from "../kit/check.ts";
import { differenceWords, firstDifference, frameSet, noBlocks, readBlocks, type ReadBlock } from "../kit/blocks.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED } from "../../src/protocol/host-scenarios.ts";

const READS = [COMPOSE, COMPOSE_REORDERED, COMPOSE_RESCORED];

/** How a score may be written: as served, and to two places. */
const written = (score: unknown): string[] => (typeof score === "number" ? [...new Set([String(score), score.toFixed(2)])] : []);

/** The score a frame was served with, written where the two blocks part, if one is: in either block's text around the difference. */
function scoreAtDifference(a: ReadBlock, b: ReadBlock, at: number): string | undefined {
  const near = (text: string): string => text.slice(Math.max(0, at - 24), at + 24);
  const scored = (block: ReadBlock): Array<{ marker: string; score: unknown }> => block.frames.map((f) => ({ marker: f.marker, score: f.frame.frame.score }));
  for (const [block, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const window = near(block.text);
    for (const f of scored(block)) {
      const elsewhere = other.frames.find((g) => g.marker === f.marker)?.frame.frame.score;
      if (elsewhere === f.score) continue;
      const form = written(f.score).find((w) => window.includes(w));
      if (form !== undefined) return form;
    }
  }
  return undefined;
}

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
 * compose-reordered's block is byte-identical to compose's (so the host
 * renders the same frames alike from run to run, and the order they come in
 * changes nothing) and where the blocks part lies a score as served (written
 * as served, or to two places) that the other scenario serves otherwise: the
 * score reached the bytes. Otherwise differing bytes warn: what changed cannot
 * be put down to the score alone (a clock, a counter). token_cost is derived
 * from content (B3), which does not change, so a provider keeping B3 cannot
 * vary it: the score is what is varied. Skip when the host wrote no block
 * there, saying which placeholder would enable the check.
 */
export default defineHostCheck({
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
      const pair = `scenarios compose (line ${a.n}) and compose-rescored (line ${b.n})`;
      if (frameSet(a) !== frameSet(b)) {
        out.push({
          ok: true,
          message: `${pair}: the blocks compose different frames (${count(a.frames.length, "frame")} and ${count(b.frames.length, "frame")}): selection may depend on score, so their bytes are not compared`,
          lines,
        });
        continue;
      }
      if (a.text === b.text) {
        out.push({ ok: true, message: `${pair}: the same ${count(a.frames.length, "frame")}, every score changed, render byte-identically`, lines });
        continue;
      }
      const d = firstDifference(a.text, b.text);
      const c = control[i];
      const steady = c !== undefined && frameSet(c) === frameSet(a) && c.text === a.text;
      const score = steady ? scoreAtDifference(a, b, d.at) : undefined;
      const where = differenceWords(d, "compose", "compose-rescored");
      out.push({
        ok: false,
        ...(score === undefined ? { level: "NONE" as const } : {}),
        message:
          score !== undefined
            ? `${pair} compose the same ${count(a.frames.length, "frame")}, differing in their scores alone, and the blocks differ ${where}, where a score (${show(score, 20)}) is written; compose-reordered's block (line ${c!.n}) is compose's byte for byte, so nothing but the score changed them`
            : `${pair} compose the same ${count(a.frames.length, "frame")}, differing in their scores alone, and the blocks differ ${where}; ${steady ? "no score is written where they part" : c ? `compose-reordered's block (line ${c.n}) differs from compose's too` : "compose-reordered has no block to compare"}, so what changed cannot be put down to the score alone`,
        expected: "the same bytes",
        actual: `different from character ${d.at}`,
        lines: [...lines, ...(c ? [c.n] : [])],
      });
    }
    if (out.length === 0 && base.length + rescored.length > 0)
      return {
        skip: `the host wrote ${count(base.length, "block")} with the frames of compose and ${count(rescored.length, "block")} with those of compose-rescored: no two to compare`,
      };
    if (out.length === 0) return { skip: noBlocks(input, views, READS.map((s) => s.name).join(", ")) };
    return out;
  },
});
