import { capabilities, REPRESENTATIONS } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { preferStep, REPRESENTATIONS_QUERY } from "../protocol/probes.ts";

/** P1–P5: one query preferring each advertised representation. */
export default defineProbe({
  ...REPRESENTATIONS_QUERY,
  async run(s, ctx) {
    const advertised = capabilities(ctx.ack).representations;
    if (!Array.isArray(advertised)) return;
    for (const r of REPRESENTATIONS.filter((x) => advertised.includes(x))) {
      s.send(preferStep(r), query(ctx, `prefer-${r}`, { representation_preferences: [r] }));
      if (!(await s.reply()) && s.stalled) return;
    }
  },
});
