import { defineProbe, query, type ProbeContext } from "./probe.ts";
import type { Session } from "./session.ts";
import { afterStep, MALFORMED_INPUT, MALFORMED_STIMULI, malformedLines, type MalformedStimulus, type ProbeSpec } from "../protocol/probes.ts";

/** Each stimulus of a table, chased by a valid query that must still be answered (R1). */
export async function sendMalformed(s: Session, ctx: ProbeContext, probe: ProbeSpec, table: readonly MalformedStimulus[]): Promise<void> {
  for (const [i, st] of malformedLines(ctx.correlation, table).entries()) {
    const seq = s.send(st.step, st.line, { rules: ["R1"], why: st.what }, { maybe: !st.valid });
    // Lock-step (§2), a line read as a request (a query, however malformed) is in flight until it is answered or its
    // deadline passes, and nothing else is sent meanwhile: its answer, frames or error, can then never be taken for the
    // next query's. A line that may be no request at all is chased at once. With correlation, ids pair the answers.
    if (seq !== undefined && !s.correlated && s.isRequest(seq)) await s.reply(seq);
    s.send(afterStep(st.step, probe), query(ctx, `sync-${i + 1}`, {}), undefined, { chase: true });
    if (!(await s.reply()) && s.stalled) return;
  }
}

export default defineProbe({
  ...MALFORMED_INPUT,
  run: (s, ctx) => sendMalformed(s, ctx, MALFORMED_INPUT, MALFORMED_STIMULI),
});
