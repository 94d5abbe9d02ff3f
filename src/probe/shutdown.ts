import { defineProbe } from "./probe.ts";
import { SHUTDOWN } from "../protocol/probes.ts";

/** R2: after shutdown the provider exits by itself, with status 0, within the grace period. */
export default defineProbe({
  ...SHUTDOWN,
  async run(s, ctx) {
    s.send(SHUTDOWN.steps.shutdown, { type: "shutdown" });
    // Over HTTP a provider "expects no further requests": there is no process to watch exit.
    if (ctx.transport === "http") return;
    const exit = await s.waitExit(ctx.graceMs);
    if (!exit) await s.kill(`the provider had not exited ${ctx.graceMs} ms after shutdown`);
  },
});
