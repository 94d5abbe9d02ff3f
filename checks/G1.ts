import { defineCheck } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { perRelation, related, type RelationAt } from "./kit/relations.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** A relation as a finding names it; display_name is left out when the relation has none. */
type Unnamed = { at: RelationAt; rel: Param; target: Param; display_name?: Param };

const F = findings({
  named: { ok: true, says: () => "every relation has a display_name" },
  "no-display-name": {
    says: (p: Unnamed) => `${related(p.at)} (${show(p.rel)} → ${show(p.target, 60)}) has display_name ${show(p.display_name)}`,
    expected: () => "a non-empty string",
    actual: (p: Unnamed) => show(p.display_name),
  },
});

/**
 * @anchor G1
 * Stimulus: every relation of every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  findings: F.table,
  id: "G1",
  title: "Every relation has a non-empty display_name",
  level: "MUST",
  requirement: "Every Relation MUST carry a non-empty display_name — an edge is surfaced by human label, never a raw id.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const r = perRelation([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (rel, at, line) =>
      typeof rel.display_name === "string" && rel.display_name.length > 0
        ? F.say("named", {}, { lines: [line] })
        : F.say(
            "no-display-name",
            {
              at,
              rel: (rel.rel ?? null) as Param,
              target: (rel.target_uri ?? null) as Param,
              ...(rel.display_name !== undefined ? { display_name: rel.display_name as Param } : {}),
            },
            { lines: [line] },
          ),
    );
    return r;
  },
});
