import { awaitAnswer, awaitSync, defineProbe, query } from "./probe.ts";
import { UNKNOWN_TYPE } from "../protocol/probes.ts";

/**
 * §2: "a receiver MUST NOT reject an envelope solely because its type is one it
 * does not implement — it replies error with code bad_request for a
 * payload-bearing request it cannot serve, and ignores an unrecognised notification."
 */
export default defineProbe({
  ...UNKNOWN_TYPE,
  async run(s, ctx) {
    if (ctx.correlation) {
      s.send(UNKNOWN_TYPE.steps.request, { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } });
      await awaitAnswer(s, "unknown-1");
    }
    s.send(UNKNOWN_TYPE.steps.notification, { type: "acme:notice", notice: { text: "an unrecognised notification" } });
    s.send(UNKNOWN_TYPE.steps.after, query(ctx, "unknown-sync", {}));
    await awaitSync(s, ctx, "unknown-sync");
  },
});
