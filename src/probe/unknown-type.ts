import { defineProbe, query } from "./probe.ts";
import { UNKNOWN_TYPE } from "../protocol/probes.ts";

/**
 * §2: "a receiver MUST NOT reject an envelope solely because its type is one it
 * does not implement — it replies error with code bad_request for a
 * payload-bearing request it cannot serve, and ignores an unrecognised notification."
 */
export default defineProbe({
  ...UNKNOWN_TYPE,
  async run(s, ctx) {
    // Neither is waited for: each may go unanswered, and the valid query after it bounds it. The request's reply, if any,
    // is paired by its id whenever it comes. One line at a time before its query: a crash is then the line's.
    if (ctx.correlation) {
      s.send(UNKNOWN_TYPE.steps.request, { type: "acme:subscribe", id: "unknown-1", subscription: { topic: "frames" } }, undefined, { maybe: true });
      s.send(UNKNOWN_TYPE.steps.afterRequest, query(ctx, "unknown-request-sync", {}), undefined, { chase: true });
      if (!(await s.reply()) && s.stalled) return;
    }
    s.send(UNKNOWN_TYPE.steps.notification, { type: "acme:notice", notice: { text: "an unrecognised notification" } }, undefined, { maybe: true });
    s.send(UNKNOWN_TYPE.steps.after, query(ctx, "unknown-sync", {}), undefined, { chase: true });
    await s.reply();
  },
});
