import { capabilities } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { framesIn, isObj } from "../protocol/envelope.ts";
import { anchorTargetStep, anchorUriStep, atDepth, GRAPH_ANCHORS } from "../protocol/probes.ts";

const uriOf = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * G4: "A provider declaring capabilities.graph and given a non-empty anchors
 * MUST return at least one anchored frame when it has one to serve." Every
 * anchor is one the provider has shown it can serve: each served frame's uri
 * (zero hops) and each relation's target_uri (one hop), each with max_frames
 * 1, so a provider that matches only one kind of anchor cannot pass by
 * returning everything. Then the last frame's uri with a generous budget, for
 * the ranking SHOULD (G3, G4).
 */
export default defineProbe({
  ...GRAPH_ANCHORS,
  async run(s, ctx) {
    if (capabilities(ctx.ack).graph !== true) return;
    s.send(GRAPH_ANCHORS.steps.unanchored, query(ctx, "anchor-0", {}), {
      rules: ["G3", "G4"],
      why: "discovery: which uris and relation targets the provider serves",
    });
    const frames = framesIn(await s.reply());
    const uris = [...new Set(frames.map((f) => uriOf(f.uri)).filter((u): u is string => u !== undefined))];
    const targets = [
      ...new Set(
        frames
          .flatMap((f) => (Array.isArray(f.relations) ? f.relations.filter(isObj).map((r) => uriOf(r.target_uri)) : []))
          .filter((t): t is string => t !== undefined),
      ),
    ];
    let n = 0;
    const ask = async (step: string, anchor: string, max: number | undefined, why: string): Promise<boolean> => {
      const id = `anchor-${++n}`;
      s.send(step, query(ctx, id, { anchors: [anchor], ...(max !== undefined ? { max_frames: max } : {}) }), { rules: max === 1 ? ["G4"] : ["G3", "G4"], why });
      return (await s.reply()) !== undefined;
    };
    // The lowest-ranked first: a provider ignoring anchors returns its top frame instead.
    const byRank = [...uris].reverse();
    for (const [i, uri] of atDepth(ctx.depth, byRank, { quick: 1, standard: 4 }).entries()) {
      const step = i === 0 ? GRAPH_ANCHORS.steps.anchorUri : anchorUriStep(i + 1);
      if (!(await ask(step, uri, 1, "a served frame's own uri (zero hops), max_frames 1")) && s.stalled) return;
    }
    for (const [i, t] of atDepth(ctx.depth, targets, { quick: 1, standard: 3 }).entries()) {
      const step = i === 0 ? GRAPH_ANCHORS.steps.anchorRelation : anchorTargetStep(i + 1);
      if (!(await ask(step, t, 1, "a served relation's target_uri (one hop), max_frames 1")) && s.stalled) return;
    }
    if (byRank[0])
      await ask(GRAPH_ANCHORS.steps.anchorRank, byRank[0], undefined, "the lowest-ranked frame's uri with a generous budget: is what is near it boosted?");
  },
});
