import { type Evidence } from "./check.ts";
import { exchanges, frameAt, framed, servedIn, unanswered, type FrameAt, type ServedFrame } from "./answers.ts";
import { findings } from "./findings.ts";
import { type ProbeView } from "../../src/transcript/view.ts";
import { BUDGET_SQUEEZE, REPRESENTATIONS_QUERY, SAMPLE_QUERY } from "../../src/protocol/probes.ts";

export const REPRESENTATION_PROBES = [SAMPLE_QUERY, BUDGET_SQUEEZE, REPRESENTATIONS_QUERY];

/** "Absent means full." */
export function representationOf(f: ServedFrame): unknown {
  return f.frame.representation ?? "full";
}

export const present = (f: ServedFrame, field: string): boolean => f.frame[field] !== undefined && f.frame[field] !== null;

type Misshaped = { frame: FrameAt; representation: string; must: string[]; must_not: string[]; missing: string[]; extra: string[] };

/** The words of a representation's shape rule (P1–P3). */
export const shape = findings({
  shaped: { ok: true, says: (p: { representation: string }) => `every ${p.representation} frame has the ${p.representation} shape` },
  misshaped: {
    apart: ["missing", "extra"],
    says: (p: Misshaped) =>
      `${framed(p.frame)} is ${p.representation} but ${[p.missing.length ? `lacks ${p.missing.join(", ")}` : "", p.extra.length ? `carries ${p.extra.join(", ")}` : ""].filter(Boolean).join(" and ")}`,
    expected: (p: Misshaped) =>
      `${p.must.length ? `present: ${p.must.join(", ")}` : ""}${p.must.length && p.must_not.length ? "; " : ""}${p.must_not.length ? `absent: ${p.must_not.join(", ")}` : ""}`,
    actual: (p: Misshaped) =>
      [p.missing.length ? `missing ${p.missing.join(", ")}` : "", p.extra.length ? `present ${p.extra.join(", ")}` : ""].filter(Boolean).join("; "),
  },
});

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
  // The frames that keep the shape are one finding, where the first of them came, with the lines of all: what merging
  // one finding per frame gave, without holding one for each of a long answer's frames.
  let shaped: number | undefined;
  const shapedLines = new Set<number>();
  for (const f of frames) {
    const missing = must.filter((k) => !present(f, k));
    const extra = mustNot.filter((k) => f.frame[k] !== undefined);
    if (missing.length === 0 && extra.length === 0) {
      shaped ??= out.push(shape.say("shaped", { representation }, { lines: [] })) - 1;
      shapedLines.add(f.line);
      continue;
    }
    out.push(shape.say("misshaped", { frame: frameAt(f), representation, must, must_not: mustNot, missing, extra }, { lines: [f.line] }));
  }
  if (shaped !== undefined) out[shaped] = shape.say("shaped", { representation }, { lines: [...shapedLines].sort((a, b) => a - b) });
  return out;
}
