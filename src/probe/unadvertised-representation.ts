import { capabilities, REPRESENTATIONS } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { UNADVERTISED_REPRESENTATION } from "../protocol/probes.ts";

/**
 * P5: "a provider asked for an unadvertised representation SHOULD reply error
 * with code unsupported_representation, or fall back to full." Runs alone: as
 * a host, cgp-conform breaks P5's host rule here on purpose.
 */
export default defineProbe({
  ...UNADVERTISED_REPRESENTATION,
  async run(s, ctx) {
    const advertised = capabilities(ctx.ack).representations;
    const list = Array.isArray(advertised) ? advertised : ["full"];
    const missing = REPRESENTATIONS.find((r) => !list.includes(r));
    if (!missing) return;
    s.send(UNADVERTISED_REPRESENTATION.steps.unadvertised, query(ctx, "unadv-1", { representation_preferences: [missing] }));
    await s.reply();
  },
});
