import { awaitAnswer, awaitSync, defineProbe, query } from "./probe.ts";
import { afterStep, MALFORMED_INPUT, malformedLines } from "../protocol/probes.ts";

export default defineProbe({
  ...MALFORMED_INPUT,
  async run(s, ctx) {
    for (const [i, st] of malformedLines(ctx.correlation).entries()) {
      s.send(st.step, st.line, { rules: ["R1"], why: st.what });
      // Lock-step, a request that may be served is answered before the next query goes, or its frames could pass for that
      // query's; a provider that never answers it wedges any lock-step host. With correlation, ids tell the answers apart.
      if (st.servable && !ctx.correlation) await awaitAnswer(s, st.step);
      const id = `sync-${i + 1}`;
      s.send(afterStep(st.step), query(ctx, id, {}));
      if (!(await awaitSync(s, ctx, id)) && s.stalled) return;
    }
  },
});
