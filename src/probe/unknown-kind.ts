import { declaredKinds } from "../protocol/caps.ts";
import { awaitAnswer, awaitSync, defineProbe, query } from "./probe.ts";
import { UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../protocol/probes.ts";

/** U2: an unknown kind in kinds is neither a crash nor an error other than unsupported_kind. */
export default defineProbe({
  ...UNKNOWN_KIND_PROBE,
  async run(s, ctx) {
    s.send(UNKNOWN_KIND_PROBE.steps.unknown, query(ctx, "ukind-1", { kinds: [UNKNOWN_KIND] }));
    if (!(await awaitAnswer(s, "ukind-1"))) return;
    const known = declaredKinds(ctx.ack)[0];
    if (known) {
      s.send(UNKNOWN_KIND_PROBE.steps.mixed, query(ctx, "ukind-2", { kinds: [UNKNOWN_KIND, known] }));
      if (!(await awaitAnswer(s, "ukind-2"))) return;
    }
    s.send(UNKNOWN_KIND_PROBE.steps.after, query(ctx, "ukind-sync", {}));
    await awaitSync(s, ctx, "ukind-sync");
  },
});
