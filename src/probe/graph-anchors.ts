import { framesIn, isObj } from "../transcript/view.ts";
import { capabilities } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query } from "./probe.ts";

/**
 * G4: "A provider declaring capabilities.graph and given a non-empty anchors
 * MUST return at least one anchored frame when it has one to serve." Anchor on
 * the lowest-ranked frame's uri, and on a relation's target_uri, with
 * max_frames 1 so that a provider ignoring anchors shows it.
 */
export default defineProbe({
  name: "graph-anchors",
  summary: "with capabilities.graph: queries unanchored, then anchored (max_frames 1) on the last frame's uri and on a relation target_uri, then anchored with a generous budget",
  handshake: true,
  shared: true,
  async run(s, ctx) {
    if (capabilities(ctx.ack).graph !== true) return;
    s.send("unanchored", query(ctx, "anchor-0", {}));
    const frames = framesIn(await awaitAnswer(s, "anchor-0"));
    const uri = [...frames].reverse().find((f) => typeof f.uri === "string" && f.uri !== "")?.uri as string | undefined;
    const target = frames
      .flatMap((f) => (Array.isArray(f.relations) ? f.relations.filter(isObj) : []))
      .map((r) => r.target_uri)
      .find((t): t is string => typeof t === "string" && t !== "");
    if (uri) {
      s.send("anchor-uri", query(ctx, "anchor-1", { anchors: [uri], max_frames: 1 }));
      if (!(await awaitAnswer(s, "anchor-1"))) return;
    }
    if (target) {
      s.send("anchor-relation", query(ctx, "anchor-2", { anchors: [target], max_frames: 1 }));
      if (!(await awaitAnswer(s, "anchor-2"))) return;
    }
    if (uri) {
      s.send("anchor-rank", query(ctx, "anchor-3", { anchors: [uri] }));
      await awaitAnswer(s, "anchor-3");
    }
  },
});
