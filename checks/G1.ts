import { defineCheck } from "./kit/check.ts";
import { perRelation } from "./kit/relations.ts";
import { show } from "./kit/show.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/**
 * @anchor G1
 * Stimulus: every relation of every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "G1",
  title: "Every relation has a non-empty display_name",
  level: "MUST",
  requirement: "Every Relation MUST carry a non-empty display_name — an edge is surfaced by human label, never a raw id.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    const r = perRelation([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (rel, where, line) =>
      typeof rel.display_name === "string" && rel.display_name.length > 0
        ? { ok: true, message: "every relation has a display_name", lines: [line] }
        : {
            ok: false,
            message: `${where} (${show(rel.rel)} → ${show(rel.target_uri, 60)}) has display_name ${show(rel.display_name)}`,
            expected: "a non-empty string",
            actual: show(rel.display_name),
            lines: [line],
          },
    );
    return r;
  },
});
