import { capabilities, providerName } from "./caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";

/** Ids that differ only in case, with non-ASCII, slash, space and a check mark: echoed verbatim or not at all. */
export const IDS = { first: "Q-Äb/c 1✓", second: "q-äB/c 1✓", error: "E-Ñ/2 ✓", verify: "V-ß/3 ✓" } as const;

/**
 * H4: "A provider declaring capabilities.correlation MUST echo a request's id
 * verbatim on the corresponding frames or error." Runs alone: the error half
 * sends a query with no query member.
 */
export default defineProbe({
  name: "correlation",
  summary: "with capabilities.correlation: two queries whose ids differ only in case, a bad query and a verify, all with unusual ids",
  handshake: true,
  shared: false,
  async run(s, ctx) {
    if (!ctx.correlation) return;
    s.send("id-first", query(ctx, IDS.first, {}));
    if (!(await awaitAnswer(s, IDS.first))) return;
    s.send("id-second", query(ctx, IDS.second, {}));
    if (!(await awaitAnswer(s, IDS.second))) return;
    s.send("id-error", { type: "query", id: IDS.error });
    if (!(await awaitAnswer(s, IDS.error))) return;
    const name = providerName(ctx.ack);
    if (capabilities(ctx.ack).verify === true && name !== undefined) {
      s.send("id-verify", { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: name, frame_id: "cgp-conform:correlation" }] } });
      await awaitAnswer(s, IDS.verify, ["verified", "error"]);
    }
  },
});
