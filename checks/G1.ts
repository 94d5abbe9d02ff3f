import { defineCheck } from "./kit/check.ts";
import { perRelation } from "./kit/relations.ts";
import { show } from "../src/transcript/view.ts";

/**
 * @anchor G1
 * Stimulus: every relation of every frame served to probes sample-query and budget-squeeze.
 */
export default defineCheck({
  id: "G1",
  title: "Every relation has a non-empty display_name",
  level: "MUST",
  requirement: "Every Relation MUST carry a non-empty display_name — an edge is surfaced by human label, never a raw id.",
  probes: ["sample-query", "budget-squeeze"],
  score({ probe }) {
    const r = perRelation([probe("sample-query"), probe("budget-squeeze")], (rel, where, line) =>
      typeof rel.display_name === "string" && rel.display_name.length > 0
        ? { ok: true, message: "every relation has a display_name", lines: [line] }
        : { ok: false, message: `${where} (${show(rel.rel)} → ${show(rel.target_uri, 60)}) has display_name ${show(rel.display_name)}`, expected: "a non-empty string", actual: show(rel.display_name), lines: [line] },
    );
    return r;
  },
});
