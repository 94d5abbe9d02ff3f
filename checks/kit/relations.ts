import { type Evidence } from "./check.ts";
import { exchanges, frameName, servedIn, unanswered } from "./answers.ts";
import { type ProbeView } from "../../src/transcript/view.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";

/** Score a rule over every relation of every served frame (G1, G2). */
export function perRelation(views: ProbeView[], rule: (r: Obj, where: string, line: number) => Evidence): Evidence[] | { skip: string } {
  const xs = exchanges(views);
  const out: Evidence[] = [];
  for (const f of servedIn(views)) {
    const rels = Array.isArray(f.frame.relations) ? f.frame.relations : [];
    for (const [i, r] of rels.entries()) out.push(rule(isObj(r) ? r : {}, `${frameName(f)} relations[${i}]`, f.line));
  }
  if (out.length === 0) return { skip: "no served frame carries a relation" };
  return [...unanswered(xs, views, { judged: true }), ...out];
}
