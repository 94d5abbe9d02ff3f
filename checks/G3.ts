import { discovery, discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { findings } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { anchored, anchoring } from "./G4.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { GRAPH_ANCHORS } from "../src/protocol/probes.ts";

/** Ranks count from 1; now is null where no frame near the anchor was returned with it. */
type Boost = { anchor: string; was: number; now: number | null };

const F = findings({
  boosted: {
    ok: true,
    says: (p: Boost) => `anchored on ${show(p.anchor, 80)}, the nearest frame moved from rank ${p.was} to rank ${p.now}`,
  },
  "not-boosted": {
    says: (p: Boost) =>
      `anchored on ${show(p.anchor, 80)}, the frames near it were not boosted: the best-placed ranked ${p.was} without the anchor and ${p.now === null ? "was not returned" : `${p.now}`} with it`,
    expected: (p: Boost) => `a frame within one hop of the anchor ranked above ${p.was}`,
    actual: (p: Boost) => (p.now === null ? "none returned" : `rank ${p.now}`),
  },
});

/**
 * @anchor G3
 * Stimulus: probe graph-anchors: an unanchored query, then the same query
 * anchored on the uri of the last frame it returned, with the same generous
 * budget (step anchor-rank).
 * Reading: "within a small number of relation hops" is not a number the spec
 * gives, so only what every reading includes is judged: the zero-hop and
 * one-hop frames G4 defines as anchored. "Boost" is read as: the best-placed
 * of them ranks strictly higher with the anchor than without it. Where one
 * was already first without the anchor no boost can show, and the check
 * skips. A SHOULD: a shortfall warns, never fails.
 */
export default defineCheck({
  findings: { ...F.table, ...anchoring.table, ...discovery.table },
  id: "G3",
  title: "Anchored queries boost frames near the anchor",
  level: "SHOULD",
  requirement: "A provider declaring capabilities.graph SHOULD boost frames within a small number of relation hops of a query anchor.",
  probes: [GRAPH_ANCHORS],
  score({ probe }) {
    const p = probe(GRAPH_ANCHORS);
    if (capabilities(p.ack()?.env).graph !== true) return { skip: "capabilities.graph is not declared" };
    const before = p.answer(GRAPH_ANCHORS.steps.unanchored, ["frames", "error"]);
    const sent = p.sent(GRAPH_ANCHORS.steps.anchorRank)[0];
    if (!before) {
      const lost = discoveryLost(p, GRAPH_ANCHORS.steps.unanchored);
      if (lost) return lost;
    }
    if (!before || !sent) return { skip: "the unanchored query served no frame with a uri to anchor on" };
    const anchor = (sent.env.query as { anchors: string[] }).anchors[0]!;
    const after = p.answer(GRAPH_ANCHORS.steps.anchorRank, ["frames", "error"]);
    if (!after) {
      const s = p.silence(GRAPH_ANCHORS.steps.anchorRank);
      return [anchoring.say("anchored-unanswered", { anchor, line: sent.n, why: s.why }, { lines: [sent.n, ...s.lines] })];
    }
    const lines = [before.n, sent.n, after.n];
    const was = framesIn(before.env).findIndex((f) => anchored(f, anchor));
    const now = framesIn(after.env).findIndex((f) => anchored(f, anchor));
    if (was <= 0)
      return {
        skip: was === 0 ? "a frame near the anchor already ranked first without it, so no boost can show" : "no frame near the anchor was served unanchored",
      };
    const e: Evidence = F.say(now !== -1 && now < was ? "boosted" : "not-boosted", { anchor, was: was + 1, now: now === -1 ? null : now + 1 }, { lines });
    return [e];
  },
});
