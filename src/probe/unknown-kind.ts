import { declaredKinds } from "../protocol/caps.ts";
import { awaitAnswer, awaitSync, defineProbe, query } from "./probe.ts";

export const UNKNOWN_KIND = "acme:diagram";

/** U2: an unknown kind in kinds is neither a crash nor an error other than unsupported_kind. */
export default defineProbe({
  name: "unknown-kind",
  summary: `queries for kinds ["${UNKNOWN_KIND}"], then for it beside a declared kind, then a valid query`,
  handshake: true,
  shared: false,
  async run(s, ctx) {
    s.send("unknown-kind", query(ctx, "ukind-1", { kinds: [UNKNOWN_KIND] }));
    if (!(await awaitAnswer(s, "ukind-1"))) return;
    const known = declaredKinds(ctx.ack)[0];
    if (known) {
      s.send("mixed-kinds", query(ctx, "ukind-2", { kinds: [UNKNOWN_KIND, known] }));
      if (!(await awaitAnswer(s, "ukind-2"))) return;
    }
    s.send("after-unknown-kind", query(ctx, "ukind-sync", {}));
    await awaitSync(s, ctx, "ukind-sync");
  },
});
