import { BASE_KINDS, declaredKinds } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";
import { kindStep, KINDS_QUERY } from "../protocol/probes.ts";

/** Q1: one query narrowed to each declared kind, and one to a base kind the provider does not declare. */
export default defineProbe({
  ...KINDS_QUERY,
  async run(s, ctx) {
    const kinds = declaredKinds(ctx.ack);
    for (const [i, k] of kinds.entries()) {
      s.send(kindStep(k), query(ctx, `kind-${i + 1}`, { kinds: [k] }));
      if (!(await awaitAnswer(s, `kind-${i + 1}`))) return;
    }
    const unserved = BASE_KINDS.find((k) => !kinds.includes(k));
    if (unserved) {
      s.send(KINDS_QUERY.steps.unserved, query(ctx, "kind-unserved", { kinds: [unserved] }));
      await awaitAnswer(s, "kind-unserved");
    }
  },
});
