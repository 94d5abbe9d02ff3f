import { defineProbe, query } from "./probe.ts";
import { SAMPLE_QUERY } from "../protocol/probes.ts";

/** One query with a generous budget: the provider's frames as it serves them. */
export default defineProbe({
  ...SAMPLE_QUERY,
  async run(s, ctx) {
    s.send(SAMPLE_QUERY.steps.sample, query(ctx, "sample-1", {}));
    await s.reply();
  },
});
