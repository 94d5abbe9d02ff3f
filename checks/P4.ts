import { defineCheck, type Evidence } from "./kit/check.ts";
import { budgetTokens, utf8ByteLength } from "../src/math/budget.ts";
import { exchanges, frameAt, framed, servedIn, unanswered, type FrameAt } from "./kit/answers.ts";
import { findings, type Param } from "./kit/findings.ts";
import { REPRESENTATION_PROBES, representationOf } from "./kit/representation.ts";
import { show } from "./kit/show.ts";

type Cost = { frame: FrameAt; declared: Param; cost: number };
type CompactCost = Cost & { bytes: number; canonical: boolean };

const F = findings({
  "inline-cost": { ok: true, says: (p: { representation: string }) => `every ${p.representation} frame declares the cost of its inline bytes` },
  "reference-cost": {
    says: (p: Cost) => `${framed(p.frame)} is a reference frame (no inline content) but declares token_cost ${show(p.declared)}`,
    expected: (p: Cost) => String(p.cost),
    actual: (p: Cost) => show(p.declared),
  },
  /** canonical: the cost declared is the frame's canonical_token_cost, the full-source cost. */
  "compact-cost": {
    apart: ["canonical"],
    says: (p: CompactCost) =>
      `${framed(p.frame)} is compact: its inline content is ${p.bytes} UTF-8 bytes → ceil(${p.bytes}/4) = ${p.cost}, but it declares token_cost ${show(p.declared)}${p.canonical ? " (its canonical_token_cost: the full-source cost)" : ""}`,
    expected: (p: CompactCost) => String(p.cost),
    actual: (p: CompactCost) => show(p.declared),
  },
});

/**
 * @anchor P4
 * Stimulus: every compact and reference frame served to probes sample-query,
 * budget-squeeze and representations (B3 holds full frames).
 * Reading: P4's sentence carries no keyword of its own; it applies B3's MUST
 * ("token_cost MUST equal ceil(utf8_byte_length(content) / 4)"), which it
 * names ("B3, §7"), to the inline rendering: a reference frame has none, so
 * 0, and a compact frame's is its distilled content. A wrong cost fails as
 * B3's does.
 */
export default defineCheck({
  findings: F.table,
  id: "P4",
  title: "Compact and reference frames cost their inline bytes only",
  level: "MUST",
  basis: "the counting grammar",
  requirement:
    "token_cost is the honest cost of the inline rendering only (B3, §7): a reference frame therefore declares token_cost: 0, and a compact frame declares the cost of its distilled inline bytes — never the full-source cost, which belongs in the separate optional canonical_token_cost.",
  probes: REPRESENTATION_PROBES,
  score({ probe }) {
    const views = REPRESENTATION_PROBES.map(probe);
    const xs = exchanges(views);
    const frames = servedIn(views).filter((f) => representationOf(f) === "compact" || representationOf(f) === "reference");
    if (frames.length === 0) {
      // Nothing served at all, with queries unanswered: what would have been served was not seen, which is no skip.
      const lost = servedIn(views).length === 0 ? unanswered(xs, views, { judged: false }) : [];
      return lost.length > 0 ? lost : { skip: "no compact or reference frame was served" };
    }
    const out: Evidence[] = unanswered(xs, views, { judged: true });
    for (const f of frames) {
      const rep = representationOf(f);
      const content = rep === "compact" && typeof f.frame.content === "string" ? f.frame.content : "";
      const want = budgetTokens(content);
      const got = f.frame.token_cost;
      if (got === want) {
        out.push(F.say("inline-cost", { representation: rep as string }, { lines: [f.line] }));
        continue;
      }
      const at = { frame: frameAt(f), declared: got as Param, cost: want };
      out.push(
        rep === "reference"
          ? F.say("reference-cost", at, { lines: [f.line] })
          : F.say("compact-cost", { ...at, bytes: utf8ByteLength(content), canonical: got === f.frame.canonical_token_cost }, { lines: [f.line] }),
      );
    }
    return out;
  },
});
