import { type Evidence } from "./check.ts";
import { exchanges, frameAt, framed, servedIn, unanswered, type FrameAt } from "./answers.ts";
import { type ProbeView } from "../../src/transcript/view.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";

/**
 * Score a rule over every relation of every served frame (G1, G2). A rule
 * returns nothing for a relation whose value the envelope schema already
 * judges for it, so one defect is one finding.
 */
/** Where a relation was served, as a finding's param: its frame and its index in that frame's relations. */
export interface RelationAt {
  [k: string]: FrameAt | number;
  frame: FrameAt;
  relation: number;
}

/** A relation param in words. */
export function related(p: RelationAt): string {
  return `${framed(p.frame)} relations[${p.relation}]`;
}

export function perRelation(views: ProbeView[], rule: (r: Obj, at: RelationAt, line: number) => Evidence | undefined): Evidence[] | { skip: string } {
  const xs = exchanges(views);
  const out: Evidence[] = [];
  let relations = 0;
  for (const f of servedIn(views)) {
    const rels = Array.isArray(f.frame.relations) ? f.frame.relations : [];
    for (const [i, r] of rels.entries()) {
      relations++;
      const e = rule(isObj(r) ? r : {}, { frame: frameAt(f), relation: i }, f.line);
      if (e) out.push(e);
    }
  }
  if (relations === 0) {
    // Nothing served at all, with queries unanswered: what relations there would be was not seen, which is no skip.
    const lost = servedIn(views).length === 0 ? unanswered(xs, views, { judged: false }) : [];
    return lost.length > 0 ? lost : { skip: "no served frame carries a relation" };
  }
  return [...unanswered(xs, views, { judged: true }), ...out];
}
