/**
 * The context blocks a host wrote to {context}, read for the frames they
 * compose: a frame is in a block where its marker is (MARKER), at the place
 * the marker first appears. Nothing here assumes how a host renders a frame.
 * Pure, like the checks.
 */
import { PLACEHOLDERS, HOST_ENV } from "../../src/protocol/host-scenarios.ts";
import type { ContextBlock, HostView } from "../../src/transcript/host.ts";
import type { HostScoreInput } from "./host.ts";
import { markedFrames, servedFrames, type ServedFrame } from "./served.ts";
import { show } from "./show.ts";

/** A block, with the served frames whose markers it holds, in the order it holds them. */
export interface ReadBlock {
  n: number;
  text: string;
  frames: Array<{ marker: string; at: number; frame: ServedFrame }>;
}

/** The blocks of a scenario that hold a marker of its frames, each with the frames found in it. */
export function readBlocks(v: HostView): { blocks: ReadBlock[]; served: ServedFrame[]; written: ContextBlock[] } {
  const served = servedFrames(v);
  const marked = markedFrames(served);
  const written = v.context();
  const blocks: ReadBlock[] = [];
  for (const b of written) {
    if (b.text === undefined) continue;
    const frames = [...marked]
      .map(([marker, frame]) => ({ marker, at: b.text!.indexOf(marker), frame }))
      .filter((f) => f.at !== -1)
      .sort((x, y) => x.at - y.at);
    if (frames.length > 0) blocks.push({ n: b.n, text: b.text, frames });
  }
  return { blocks, served, written };
}

/** The markers a block holds, as a set in words, to compare two blocks' frame sets. */
export function frameSet(b: ReadBlock): string {
  return b.frames
    .map((f) => f.marker)
    .sort()
    .join(" ");
}

/** Where two texts first differ (in UTF-16 units), and a few characters of each from just before it. */
export function firstDifference(a: string, b: string): { at: number; a: string; b: string } {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - 16);
  return { at, a: a.slice(from, at + 32), b: b.slice(from, at + 32) };
}

/** A difference in words: 'from character 212: …"score=0.97"… here, …"score=0.31"… there'. */
export function differenceWords(d: { at: number; a: string; b: string }, here: string, there: string): string {
  return `from character ${d.at}: ${show(d.a, 60)} in ${here}, ${show(d.b, 60)} in ${there}`;
}

/**
 * Why nothing of a block can be judged, where the host wrote none (or none
 * holding a frame's marker) in the scenarios read: a skip's words, naming
 * the placeholder that would enable the check.
 */
export function noBlocks(input: HostScoreInput, views: readonly HostView[], scenarios: string): string {
  const written = views.reduce((a, v) => a + v.context().length, 0);
  if (written > 0)
    return `the host's ${written === 1 ? "one line" : `${written} lines`} in ${PLACEHOLDERS.context} (${scenarios}) hold no block with the content of a frame served there: which frames a block composes cannot be told`;
  const named = input.names(PLACEHOLDERS.context) || input.names(HOST_ENV.context);
  return named
    ? `the host's command names ${PLACEHOLDERS.context}, but it wrote no context block there in ${scenarios}`
    : `the host wrote no context block: name ${PLACEHOLDERS.context} in its command line (or read ${HOST_ENV.context}) and append {"text": "<the block>"} for each block it composes`;
}
