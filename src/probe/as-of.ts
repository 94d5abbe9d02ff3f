import { compareCodePoints } from "../math/attest.ts";
import { isProfileTimestamp } from "../math/timestamp.ts";
import { defineProbe, query } from "./probe.ts";
import { framesIn, type Obj } from "../protocol/envelope.ts";
import { AS_OF, pinnedStep, type Depth } from "../protocol/probes.ts";

const SECOND = 1000;
const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

export interface Pin {
  at: string;
  why: string;
}

/** Pins a standard run sends at most: the ones outside every window first. */
const STANDARD_PINS = 16;

/**
 * Instants at the edges of each served frame's validity window: a day and a
 * second before valid_from, at valid_from, a second before, at, a second
 * after and a day after valid_to. Quick keeps the day-outside pins; standard
 * adds the edges, up to STANDARD_PINS in all (those outside every reading of
 * the window first); exhaustive sends every one.
 */
export function pins(frames: Obj[], depth: Depth = "standard"): Pin[] {
  const out = new Map<string, { why: string; rank: number }>();
  const add = (ms: number, why: string, rank: number): void => {
    if (!Number.isNaN(ms) && !out.has(iso(ms))) out.set(iso(ms), { why, rank });
  };
  for (const f of frames) {
    const from = isProfileTimestamp(f.valid_from) ? Date.parse(f.valid_from as string) : NaN;
    const to = isProfileTimestamp(f.valid_to) ? Date.parse(f.valid_to as string) : NaN;
    if (Number.isNaN(from) && Number.isNaN(to)) continue;
    const name = `frame ${JSON.stringify(f.id)}`;
    add(to + DAY, `a day after ${name}'s valid_to`, 0);
    add(from - DAY, `a day before ${name}'s valid_from`, 0);
    if (depth === "quick") continue;
    add(to + SECOND, `a second after ${name}'s valid_to: outside its window on every reading`, 1);
    add(from - SECOND, `a second before ${name}'s valid_from: outside its window on every reading`, 1);
    add(from, `at ${name}'s valid_from`, 2);
    add(to - SECOND, `a second before ${name}'s valid_to: inside its window`, 2);
    add(to, `at ${name}'s valid_to: the edge whose inclusion the spec leaves open`, 2);
  }
  // Code-point order, the same on every machine: localeCompare's order is the locale's, and loads a collator.
  const chosen = [...out].sort((a, b) => a[1].rank - b[1].rank || compareCodePoints(a[0], b[0]));
  return (depth === "exhaustive" ? chosen : chosen.slice(0, STANDARD_PINS))
    .map(([at, p]) => ({ at, why: p.why }))
    .sort((a, b) => compareCodePoints(a.at, b.at));
}

/** as_of: "as_of pins retrieval to an instant." */
export default defineProbe({
  ...AS_OF,
  async run(s, ctx) {
    s.send(AS_OF.steps.unpinned, query(ctx, "asof-0", {}), { rules: ["S6-as-of"], why: "discovery: the served frames' validity windows" });
    const frames = framesIn(await s.reply());
    for (const [i, pin] of pins(frames, ctx.depth).entries()) {
      s.send(pinnedStep(i + 1), query(ctx, `asof-${i + 1}`, { as_of: pin.at }), { rules: ["S6-as-of"], why: pin.why });
      if (!(await s.reply()) && s.stalled) return;
    }
  },
});
