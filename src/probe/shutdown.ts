import { defineProbe } from "./probe.ts";
import { SHUTDOWN } from "../protocol/probes.ts";

/** R2: after shutdown the provider exits by itself, with status 0, within the grace period. */
export default defineProbe({
  ...SHUTDOWN,
  async run(s, ctx) {
    if (ctx.transport === "http") {
      // Over HTTP a provider told shutdown "expects no further requests" (the schema's Shutdown), yet every session
      // shares its one server and the others may still be running; and there is no process to watch exit.
      s.notSent(SHUTDOWN.steps.shutdown, { type: "shutdown" }, HTTP_SHUTDOWN);
      return;
    }
    s.send(SHUTDOWN.steps.shutdown, { type: "shutdown" });
    const exit = await s.waitExit(ctx.graceMs);
    if (!exit) await s.kill(`the provider had not exited ${ctx.graceMs} ms after shutdown`);
  },
});

const HTTP_SHUTDOWN =
  "not sent over HTTP: a provider told shutdown expects no further requests, and the run's other sessions share its server; R2 is judged on stdio only";
