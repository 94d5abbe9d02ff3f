import { declaredKinds } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { UNKNOWN_KIND, UNKNOWN_KIND_PROBE } from "../protocol/probes.ts";

/**
 * A kind no revision defines: Q1 judges the frames (none outside kinds), R1
 * that the provider survives. The valid query after is sent even when the
 * unknown kind got no answer, so a provider that merely stayed silent is told
 * from one that died or wedged.
 */
export default defineProbe({
  ...UNKNOWN_KIND_PROBE,
  async run(s, ctx) {
    s.send(UNKNOWN_KIND_PROBE.steps.unknown, query(ctx, "ukind-1", { kinds: [UNKNOWN_KIND] }), { rules: ["Q1", "R1"], why: "a kind no revision defines" });
    const answered = await s.reply();
    const known = declaredKinds(ctx.ack).find((k) => k !== "");
    if (answered && known) {
      s.send(UNKNOWN_KIND_PROBE.steps.mixed, query(ctx, "ukind-2", { kinds: [UNKNOWN_KIND, known] }), {
        rules: ["Q1", "R1"],
        why: "the unknown kind beside a declared one",
      });
      await s.reply();
    }
    s.send(UNKNOWN_KIND_PROBE.steps.after, query(ctx, "ukind-sync", {}), undefined, { chase: true });
    await s.reply();
  },
});
