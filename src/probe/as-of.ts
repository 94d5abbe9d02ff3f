import { awaitAnswer, defineProbe, query } from "./probe.ts";
import { framesIn, type Obj } from "../protocol/envelope.ts";
import { AS_OF, pinnedStep } from "../protocol/probes.ts";

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/** Instants that some served frame's validity window excludes: a day past a valid_to, a day before a valid_from. */
export function pins(frames: Obj[]): string[] {
  const out = new Set<string>();
  for (const f of frames) {
    const to = typeof f.valid_to === "string" ? Date.parse(f.valid_to) : NaN;
    if (!Number.isNaN(to)) out.add(iso(to + DAY));
    const from = typeof f.valid_from === "string" ? Date.parse(f.valid_from) : NaN;
    if (!Number.isNaN(from)) out.add(iso(from - DAY));
  }
  return [...out].sort().slice(0, 3);
}

/** as_of: "as_of pins retrieval to an instant." */
export default defineProbe({
  ...AS_OF,
  async run(s, ctx) {
    s.send(AS_OF.steps.unpinned, query(ctx, "asof-0", {}));
    const frames = framesIn(await awaitAnswer(s, "asof-0"));
    for (const [i, at] of pins(frames).entries()) {
      s.send(pinnedStep(i + 1), query(ctx, `asof-${i + 1}`, { as_of: at }));
      if (!(await awaitAnswer(s, `asof-${i + 1}`))) return;
    }
  },
});
