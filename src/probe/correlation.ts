import { capabilities, fingerprintDims, providerName, REPRESENTATIONS } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { afterIdStep, CORRELATION, CORRELATION_IDS as IDS, UNKNOWN_KIND } from "../protocol/probes.ts";
import type { Obj } from "../protocol/envelope.ts";
import { unitVector } from "./embedding.ts";

/**
 * H4: "A provider declaring capabilities.correlation MUST echo a request's id
 * verbatim on the corresponding frames or error." Every reply type is asked
 * for: frames (two ids differing only in case), and every request that can
 * end in an error — an unadvertised representation, a malformed query, a
 * wrong-length embedding, an unknown request type, a malformed verify — and a
 * verify. A request the provider may leave unanswered is chased by a valid
 * query, so silence costs no timeout and its replies are told from the next
 * answer's. Runs alone: it breaks P5's and V1's host rules on purpose.
 */
export default defineProbe({
  ...CORRELATION,
  async run(s, ctx) {
    if (!ctx.correlation) return;
    const caps = capabilities(ctx.ack);
    const aim = (why: string) => ({ rules: ["H4"], why });
    s.send(CORRELATION.steps.first, query(ctx, IDS.first, {}), aim("frames, for an id with non-ASCII, a slash and a space"));
    if (!(await s.reply()) && s.stalled) return;
    s.send(CORRELATION.steps.second, query(ctx, IDS.second, {}), aim("frames, for an id differing from the first only in case"));
    if (!(await s.reply()) && s.stalled) return;
    s.send(CORRELATION.steps.digits, query(ctx, IDS.digits, {}), aim("frames, for an id made only of digits: a string, never echoed as a number"));
    if (!(await s.reply()) && s.stalled) return;
    s.send(
      CORRELATION.steps.decomposed,
      query(ctx, IDS.decomposed, {}),
      aim("frames, for the first id in decomposed Unicode: another string, never normalised to the first"),
    );
    if (!(await s.reply()) && s.stalled) return;
    // A well-formed request a conformant provider may refuse: an error to echo the id on.
    const offered = Array.isArray(caps.representations) ? caps.representations : ["full"];
    const unadvertised = REPRESENTATIONS.find((r) => !offered.includes(r));
    s.send(
      CORRELATION.steps.refused,
      query(ctx, IDS.error, unadvertised ? { representation_preferences: [unadvertised] } : { kinds: [UNKNOWN_KIND] }),
      aim(
        unadvertised
          ? `an unadvertised representation (${unadvertised}): unsupported_representation, or frames`
          : "an unknown kind: unsupported_kind, or frames",
      ),
    );
    if (!(await s.reply()) && s.stalled) return;

    const chased: Array<[string, Obj | undefined, string]> = [
      [
        CORRELATION.steps.malformed,
        { type: "query", id: IDS.malformed, query: { goal: 7, kinds: "doc", max_frames: "many" } },
        "a malformed query: bad_request",
      ],
      [
        CORRELATION.steps.embedding,
        (() => {
          const dims = fingerprintDims(caps.embeddings_fingerprint);
          return dims === undefined ? undefined : query(ctx, IDS.embedding, { embedding: unitVector(dims + 3) });
        })(),
        "an embedding three dimensions too long: bad_request (E1)",
      ],
      [
        CORRELATION.steps.unknownType,
        { type: "acme:subscribe", id: IDS.unknownType, subscription: { topic: "frames" } },
        "an unknown request type: bad_request (§2)",
      ],
      [
        CORRELATION.steps.badVerify,
        caps.verify === true ? { type: "verify", id: IDS.badVerify, request: { frames: "not an array" } } : undefined,
        "a malformed verify: an error",
      ],
    ];
    for (const [i, [step, env, why]] of chased.entries()) {
      if (!env) continue;
      // Not waited for: a provider may leave it unanswered, and its reply, when one comes, is paired by its id.
      s.send(step, env, aim(why), { maybe: true });
      s.send(afterIdStep(step), query(ctx, `id-sync-${i + 1}`, {}), undefined, { chase: true });
      if (!(await s.reply()) && s.stalled) return;
    }
    const name = providerName(ctx.ack);
    if (caps.verify === true && name) {
      s.send(
        CORRELATION.steps.verify,
        { type: "verify", id: IDS.verify, request: { frames: [{ provider_id: name, frame_id: "cgp-conform:correlation" }] } },
        aim("verified, for a verify"),
      );
      await s.reply();
    }
  },
});
