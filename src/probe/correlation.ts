import { capabilities, providerName, REPRESENTATIONS } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";

/** Ids that differ only in case, with non-ASCII, slash, space and a check mark: echoed verbatim or not at all. */
export const IDS = { first: "Q-Äb/c 1✓", second: "q-äB/c 1✓", error: "E-Ñ/2 ✓", verify: "V-ß/3 ✓" } as const;

/**
 * H4: "A provider declaring capabilities.correlation MUST echo a request's id
 * verbatim on the corresponding frames or error." Runs alone: one request
 * prefers an unadvertised representation (an error, from a provider that
 * follows P5's SHOULD), which breaks P5's host rule on purpose.
 */
export default defineProbe({
  name: "correlation",
  summary: "with capabilities.correlation: two queries whose ids differ only in case, a query for an unadvertised representation, and a verify, all with unusual ids",
  handshake: true,
  shared: false,
  async run(s, ctx) {
    if (!ctx.correlation) return;
    s.send("id-first", query(ctx, IDS.first, {}));
    if (!(await awaitAnswer(s, IDS.first))) return;
    s.send("id-second", query(ctx, IDS.second, {}));
    if (!(await awaitAnswer(s, IDS.second))) return;
    // A well-formed request a conformant provider may refuse: an error to echo the id on.
    const offered = capabilities(ctx.ack).representations;
    const unadvertised = REPRESENTATIONS.find((r) => !(Array.isArray(offered) ? offered : ["full"]).includes(r));
    s.send("id-refused", query(ctx, IDS.error, unadvertised ? { representation_preferences: [unadvertised] } : { kinds: ["acme:diagram"] }));
    if (!(await awaitAnswer(s, IDS.error))) return;
    const name = providerName(ctx.ack);
    if (capabilities(ctx.ack).verify === true && name) {
      s.send("id-verify", { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: name, frame_id: "cgp-conform:correlation" }] } });
      await awaitAnswer(s, IDS.verify, ["verified", "error"]);
    }
  },
});
