import { capabilities, REPRESENTATIONS } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";

export const preferStep = (r: string): string => `prefer-${r}`;

/** P1–P5: one query preferring each advertised representation. */
export default defineProbe({
  name: "representations",
  summary: "queries once preferring each representation the provider advertises",
  handshake: true,
  shared: true,
  async run(s, ctx) {
    const advertised = capabilities(ctx.ack).representations;
    if (!Array.isArray(advertised)) return;
    for (const r of REPRESENTATIONS.filter((x) => advertised.includes(x))) {
      s.send(preferStep(r), query(ctx, `prefer-${r}`, { representation_preferences: [r] }));
      if (!(await awaitAnswer(s, `prefer-${r}`))) return;
    }
  },
});
