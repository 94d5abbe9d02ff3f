import { discovery, discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { GRAPH_ANCHORS } from "../src/protocol/probes.ts";

/** G4's predicate: the frame's uri is the anchor (zero hops), or one of its relation targets is (one hop). */
export function anchored(f: Obj, anchor: string): boolean {
  return f.uri === anchor || (Array.isArray(f.relations) && f.relations.some((r) => isObj(r) && r.target_uri === anchor));
}

/** The words of an anchored query left unanswered (G3, G4). */
export const anchoring = findings({
  "anchored-unanswered": {
    untestable: true,
    says: (p: { anchor: string; line: number; why: string }) => `query anchored on ${show(p.anchor, 80)} (line ${p.line}) got no answer: ${p.why}`,
  },
});

/** How the anchor was chosen: a frame's uri (zero hops) or a relation's target_uri (one hop). */
type Via = "uri" | "target_uri";
const VIA: Record<Via, string> = { uri: "a served frame's uri", target_uri: "a served relation's target_uri" };

/** fragment: the anchor carries a "#fragment" (a provider that matches only those misses the rest). */
type Missed = { via: Via; anchor: string; fragment: boolean; returned: Param[] };
type Ranked = { late: Param; miss: Param; order: { id: Param; anchored: boolean }[] };

const F = findings({
  "anchored-first": { ok: true, says: (p: { hits: number; frames: number }) => `anchored frames come first (${p.hits} of ${p.frames})` },
  "ranked-below": {
    cites: "SHOULD rank anchored frames above unanchored ones",
    level: "SHOULD",
    says: (p: Ranked) => `anchored frame ${show(p.late)} is ranked below unanchored frame ${show(p.miss)}`,
    expected: () => "anchored frames first",
    actual: (p: Ranked) => p.order.map((f) => `${show(f.id)}${f.anchored ? "*" : ""}`).join(", "),
  },
  "returned-anchored": {
    ok: true,
    says: (p: { via: Via; id: Param }) => `anchored on ${VIA[p.via]}, max_frames 1: returned anchored frame ${show(p.id)}`,
  },
  "no-anchored": {
    apart: ["via"],
    says: (p: Missed) =>
      `anchored on ${VIA[p.via]} ${show(p.anchor, 80)} with max_frames 1, the provider returned ${p.returned.length === 0 ? "no frame" : p.returned.map((id) => `unanchored frame ${show(id)}`).join(", ")}, though it served an anchored frame to the unanchored query`,
    expected: () => "at least one frame whose uri or relation target_uri equals the anchor",
    actual: (p: Missed) => p.returned.map((id) => show(id)).join(", ") || "no frames",
  },
});

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
  findings: { ...F.table, ...anchoring.table, ...discovery.table },
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
        out.push(anchoring.say("anchored-unanswered", { anchor, line: sent.n, why: s.why }, { lines: [sent.n, ...s.lines] }));
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
            ? F.say("anchored-first", { hits: hits.length, frames: frames.length }, { lines })
            : F.say(
                "ranked-below",
                {
                  late: frames[lateHit]!.id as Param,
                  miss: frames[firstMiss]!.id as Param,
                  order: frames.map((f) => ({ id: f.id as Param, anchored: anchored(f, anchor) })),
                },
                { lines },
              ),
        );
        continue;
      }
      const via: Via = servedUris.has(anchor) ? "uri" : "target_uri";
      out.push(
        hits.length > 0
          ? F.say("returned-anchored", { via, id: hits[0]!.id as Param }, { lines })
          : F.say("no-anchored", { via, anchor, fragment: anchor.includes("#"), returned: frames.map((f) => f.id as Param) }, { lines }),
      );
    }
    return out.length > 0
      ? out
      : (discoveryLost(p, GRAPH_ANCHORS.steps.unanchored) ?? { skip: "the unanchored query served no frame with a uri or relation to anchor on" });
  },
});
