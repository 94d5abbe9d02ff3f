import { capabilities, providerName, REPRESENTATIONS } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";
import { CORRELATION, CORRELATION_IDS as IDS } from "../protocol/probes.ts";

/**
 * H4: "A provider declaring capabilities.correlation MUST echo a request's id
 * verbatim on the corresponding frames or error." Runs alone: one request
 * prefers an unadvertised representation (an error, from a provider that
 * follows P5's SHOULD), which breaks P5's host rule on purpose.
 */
export default defineProbe({
  ...CORRELATION,
  async run(s, ctx) {
    if (!ctx.correlation) return;
    s.send(CORRELATION.steps.first, query(ctx, IDS.first, {}));
    if (!(await awaitAnswer(s, IDS.first))) return;
    s.send(CORRELATION.steps.second, query(ctx, IDS.second, {}));
    if (!(await awaitAnswer(s, IDS.second))) return;
    // A well-formed request a conformant provider may refuse: an error to echo the id on.
    const offered = capabilities(ctx.ack).representations;
    const unadvertised = REPRESENTATIONS.find((r) => !(Array.isArray(offered) ? offered : ["full"]).includes(r));
    s.send(CORRELATION.steps.refused, query(ctx, IDS.error, unadvertised ? { representation_preferences: [unadvertised] } : { kinds: ["acme:diagram"] }));
    if (!(await awaitAnswer(s, IDS.error))) return;
    const name = providerName(ctx.ack);
    if (capabilities(ctx.ack).verify === true && name) {
      s.send(CORRELATION.steps.verify, { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: name, frame_id: "cgp-conform:correlation" }] } });
      await awaitAnswer(s, IDS.verify, ["verified", "error"]);
    }
  },
});
