import { awaitAnswer, awaitSync, defineProbe, query, type ProbeContext } from "./probe.ts";
import type { Session } from "./session.ts";
import { afterStep, MALFORMED_INPUT, MALFORMED_STIMULI, malformedLines, type MalformedStimulus, type ProbeSpec } from "../protocol/probes.ts";

/** Each stimulus of a table, chased by a valid query that must still be answered (R1). */
export async function sendMalformed(s: Session, ctx: ProbeContext, probe: ProbeSpec, table: readonly MalformedStimulus[]): Promise<void> {
  for (const [i, st] of malformedLines(ctx.correlation, table).entries()) {
    s.send(st.step, st.line, { rules: ["R1"], why: st.what });
    // Lock-step, a request that may be served is answered before the next query goes, or its frames could pass for that
    // query's; a provider that never answers it wedges any lock-step host. With correlation, ids tell the answers apart.
    if (st.servable && !ctx.correlation) await awaitAnswer(s, st.step);
    const id = `sync-${i + 1}`;
    s.send(afterStep(st.step, probe), query(ctx, id, {}));
    if (!(await awaitSync(s, ctx, id)) && s.stalled) return;
  }
}

export default defineProbe({
  ...MALFORMED_INPUT,
  run: (s, ctx) => sendMalformed(s, ctx, MALFORMED_INPUT, MALFORMED_STIMULI),
});
