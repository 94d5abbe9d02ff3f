/**
 * docs/readings.md's generated table, from the check registry: every finding whose level is not its check's
 * (with the sentence it cites, or its check's own, and, where it stands below that sentence's keyword, the reading that says why),
 * and every finding or check that stands on a normative grammar or wire shape (docs/readings.md, rules 2–4).
 */
import { CHECKS } from "../../checks/index.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { basisLabel, type Basis, type Wording } from "../../checks/kit/findings.ts";
import type { Level } from "../verdict/status.ts";
import { cell } from "./wrap.ts";

type Def = { id: string; level: Level; basis?: Basis; findings?: Record<string, Wording<never>> };
const ALL = [...CHECKS, ...HOST_CHECKS] as readonly Def[];
const LEVEL: Record<Level, string> = { MUST: "MUST (fails)", SHOULD: "SHOULD (warns)", NONE: "no keyword (warns)", MAY: "MAY (informs)" };

/** Each finding held to a sentence other than its check's own, or to a grammar: check, code, level, what gives it. */
export function readingRows(): { id: string; code: string; level: string; by: string; reading?: string }[] {
  const rows: { id: string; code: string; level: string; by: string; reading?: string }[] = [];
  for (const c of ALL) {
    if (c.basis) rows.push({ id: c.id, code: "(the check)", level: LEVEL.MUST, by: basisLabel(c.basis) });
    for (const [code, w] of Object.entries(c.findings ?? {})) {
      if (w.ok || w.untestable) continue;
      if (w.basis) rows.push({ id: c.id, code, level: LEVEL.MUST, by: basisLabel(w.basis) });
      else if (w.cites || w.reading)
        rows.push({
          id: c.id,
          code,
          level: LEVEL[w.level ?? c.level],
          by: w.cites ? `"${w.cites}"` : "its check's requirement",
          ...(w.reading ? { reading: w.reading } : {}),
        });
    }
  }
  return rows;
}

export function readingsMarkdown(): string {
  return [
    "| Check | Finding | Level | Held to | Reading (where below the sentence's keyword) |",
    "|---|---|---|---|---|",
    ...readingRows().map((r) => `| \`${r.id}\` | \`${r.code}\` | ${r.level} | ${cell(r.by)} | ${cell(r.reading ?? "")} |`),
  ].join("\n");
}
