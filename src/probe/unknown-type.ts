import { awaitAnswer, awaitSync, defineProbe, query } from "./probe.ts";

/**
 * §2: "a receiver MUST NOT reject an envelope solely because its type is one it
 * does not implement — it replies error with code bad_request for a
 * payload-bearing request it cannot serve, and ignores an unrecognised notification."
 */
export default defineProbe({
  name: "unknown-type",
  summary: "sends an unknown envelope type with an id (correlating providers only), then one without, then a valid query",
  handshake: true,
  shared: false,
  async run(s, ctx) {
    if (ctx.correlation) {
      s.send("unknown-request", { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } });
      await awaitAnswer(s, "unknown-1");
    }
    s.send("unknown-notification", { type: "acme:notice", notice: { text: "an unrecognised notification" } });
    s.send("after-notification", query(ctx, "unknown-sync", {}));
    await awaitSync(s, ctx, "unknown-sync");
  },
});
