import { discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { GRAPH_ANCHORS } from "../src/protocol/probes.ts";

/** G4's predicate: the frame's uri is the anchor (zero hops), or one of its relation targets is (one hop). */
export function anchored(f: Obj, anchor: string): boolean {
  return f.uri === anchor || (Array.isArray(f.relations) && f.relations.some((r) => isObj(r) && r.target_uri === anchor));
}

/**
 * @anchor G4
 * Stimulus: probe graph-anchors, derived from an unanchored query: anchored
 * with max_frames 1 on each served frame's uri (zero hops, lowest-ranked
 * first) and on each served relation's target_uri (one hop); then on the
 * lowest-ranked uri with a generous budget, for the ranking SHOULD (which is
 * G3's, given a decidable predicate). Every anchor names a frame the provider
 * served unanchored, so it "has one to serve".
 */
export default defineCheck({
  id: "G4",
  title: "Anchored queries return anchored frames",
  level: "MUST",
  requirement:
    "A frame is anchored by an anchor URI when its own uri equals that anchor (zero hops), or any of its relations[].target_uri does (one hop). A provider declaring capabilities.graph and given a non-empty anchors MUST return at least one anchored frame when it has one to serve, and SHOULD rank anchored frames above unanchored ones.",
  probes: [GRAPH_ANCHORS],
  score({ probe }) {
    const p = probe(GRAPH_ANCHORS);
    if (capabilities(p.ack()?.env).graph !== true) return { skip: "capabilities.graph is not declared" };
    const out: Evidence[] = [];
    const unanchored = p.answer(GRAPH_ANCHORS.steps.unanchored, ["frames", "error"]);
    const servedUris = new Set(unanchored ? framesIn(unanchored.env).map((f) => f.uri) : []);
    const anchoredSteps = p
      .sent()
      .filter(
        (m) =>
          m.env.type === "query" &&
          Array.isArray((m.env.query as { anchors?: unknown })?.anchors) &&
          (m.env.query as { anchors: unknown[] }).anchors.length > 0,
      )
      .map((m) => m.step);
    for (const step of anchoredSteps) {
      const sent = p.sent(step)[0]!;
      const anchor = (sent.env.query as { anchors: string[] }).anchors[0]!;
      const reply = p.answer(step, ["frames", "error"]);
      if (!reply) {
        const s = p.silence(step);
        out.push({
          ok: false,
          untestable: true,
          message: `query anchored on ${show(anchor, 80)} (line ${sent.n}) got no answer: ${s.why}`,
          lines: [sent.n, ...s.lines],
        });
        continue;
      }
      const lines = [sent.n, reply.n];
      const frames = framesIn(reply.env);
      const hits = frames.filter((f) => anchored(f, anchor));
      if (step === GRAPH_ANCHORS.steps.anchorRank) {
        const firstMiss = frames.findIndex((f) => !anchored(f, anchor));
        const lateHit = frames.findIndex((f, i) => i > firstMiss && anchored(f, anchor));
        out.push(
          firstMiss === -1 || lateHit === -1
            ? { ok: true, message: `anchored frames come first (${hits.length} of ${frames.length})`, lines }
            : {
                ok: false,
                level: "SHOULD",
                message: `anchored frame ${show(frames[lateHit]!.id)} is ranked below unanchored frame ${show(frames[firstMiss]!.id)}`,
                expected: "anchored frames first",
                actual: frames.map((f) => `${show(f.id)}${anchored(f, anchor) ? "*" : ""}`).join(", "),
                lines,
              },
        );
        continue;
      }
      const how = servedUris.has(anchor) ? "a served frame's uri" : "a served relation's target_uri";
      out.push(
        hits.length > 0
          ? { ok: true, message: `anchored on ${how}, max_frames 1: returned anchored frame ${show(hits[0]!.id)}`, lines }
          : {
              ok: false,
              message: `anchored on ${how} ${show(anchor, 80)} with max_frames 1, the provider returned ${frames.length === 0 ? "no frame" : frames.map((f) => `unanchored frame ${show(f.id)}`).join(", ")}, though it served an anchored frame to the unanchored query`,
              expected: "at least one frame whose uri or relation target_uri equals the anchor",
              actual: frames.map((f) => show(f.id)).join(", ") || "no frames",
              lines,
            },
      );
    }
    return out.length > 0
      ? out
      : (discoveryLost(p, GRAPH_ANCHORS.steps.unanchored) ?? { skip: "the unanchored query served no frame with a uri or relation to anchor on" });
  },
});
