import { type Evidence } from "./check.ts";
import { exchanges, frameName, servedIn, unanswered, type ServedFrame } from "./answers.ts";
import { type ProbeView } from "../../src/transcript/view.ts";
import { BUDGET_SQUEEZE, REPRESENTATIONS_QUERY, SAMPLE_QUERY } from "../../src/protocol/probes.ts";

export const REPRESENTATION_PROBES = [SAMPLE_QUERY, BUDGET_SQUEEZE, REPRESENTATIONS_QUERY];

/** "Absent means full." */
export function representationOf(f: ServedFrame): unknown {
  return f.frame.representation ?? "full";
}

export const present = (f: ServedFrame, field: string): boolean => f.frame[field] !== undefined && f.frame[field] !== null;

/**
 * Score a representation's shape rule over the frames served in it: `must`
 * members present, `mustNot` members absent (P1–P3).
 */
export function shapeRule(views: ProbeView[], representation: string, must: string[], mustNot: string[]): Evidence[] | { skip: string } {
  const xs = exchanges(views);
  const frames = servedIn(views).filter((f) => representationOf(f) === representation);
  if (frames.length === 0) {
    // Nothing served at all, with queries unanswered: what would have been served was not seen, which is no skip.
    const lost = servedIn(views).length === 0 ? unanswered(xs, views, { judged: false }) : [];
    return lost.length > 0 ? lost : { skip: `no ${representation} frame was served` };
  }
  const out: Evidence[] = unanswered(xs, views, { judged: true });
  for (const f of frames) {
    const missing = must.filter((k) => !present(f, k));
    const extra = mustNot.filter((k) => f.frame[k] !== undefined);
    if (missing.length === 0 && extra.length === 0) {
      out.push({ ok: true, message: `every ${representation} frame has the ${representation} shape`, lines: [f.line] });
      continue;
    }
    out.push({
      ok: false,
      message: `${frameName(f)} is ${representation} but ${[missing.length ? `lacks ${missing.join(", ")}` : "", extra.length ? `carries ${extra.join(", ")}` : ""].filter(Boolean).join(" and ")}`,
      expected: `${must.length ? `present: ${must.join(", ")}` : ""}${must.length && mustNot.length ? "; " : ""}${mustNot.length ? `absent: ${mustNot.join(", ")}` : ""}`,
      actual: [missing.length ? `missing ${missing.join(", ")}` : "", extra.length ? `present ${extra.join(", ")}` : ""].filter(Boolean).join("; "),
      lines: [f.line],
    });
  }
  return out;
}
