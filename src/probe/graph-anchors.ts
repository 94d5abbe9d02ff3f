import { capabilities } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";
import { framesIn, isObj } from "../protocol/envelope.ts";
import { GRAPH_ANCHORS } from "../protocol/probes.ts";

/**
 * G4: "A provider declaring capabilities.graph and given a non-empty anchors
 * MUST return at least one anchored frame when it has one to serve." Anchor on
 * the lowest-ranked frame's uri, and on a relation's target_uri, with
 * max_frames 1 so that a provider ignoring anchors shows it.
 */
export default defineProbe({
  ...GRAPH_ANCHORS,
  async run(s, ctx) {
    if (capabilities(ctx.ack).graph !== true) return;
    s.send(GRAPH_ANCHORS.steps.unanchored, query(ctx, "anchor-0", {}));
    const frames = framesIn(await awaitAnswer(s, "anchor-0"));
    const uri = [...frames].reverse().find((f) => typeof f.uri === "string" && f.uri !== "")?.uri as string | undefined;
    const target = frames
      .flatMap((f) => (Array.isArray(f.relations) ? f.relations.filter(isObj) : []))
      .map((r) => r.target_uri)
      .find((t): t is string => typeof t === "string" && t !== "");
    if (uri) {
      s.send(GRAPH_ANCHORS.steps.anchorUri, query(ctx, "anchor-1", { anchors: [uri], max_frames: 1 }));
      if (!(await awaitAnswer(s, "anchor-1"))) return;
    }
    if (target) {
      s.send(GRAPH_ANCHORS.steps.anchorRelation, query(ctx, "anchor-2", { anchors: [target], max_frames: 1 }));
      if (!(await awaitAnswer(s, "anchor-2"))) return;
    }
    if (uri) {
      s.send(GRAPH_ANCHORS.steps.anchorRank, query(ctx, "anchor-3", { anchors: [uri] }));
      await awaitAnswer(s, "anchor-3");
    }
  },
});
