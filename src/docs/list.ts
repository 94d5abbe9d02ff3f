/**
 * `list`: every registered check with the probes that feed it and the
 * misbehave modes that witness it (must make it fail). Pure: returns text.
 */
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { type Level } from "../../checks/kit/check.ts";
import { witnesses } from "./tables.ts";

export interface ListEntry {
  id: string;
  level: Level;
  title: string;
  requirement: string;
  probes: string[];
  /** Misbehave modes whose expectFail includes this check. */
  witnesses: string[];
}

export function listJson(): ListEntry[] {
  return CHECKS.map((c) => ({
    id: c.id,
    level: c.level,
    title: c.title,
    requirement: c.requirement,
    probes: c.probes.map((p) => p.name),
    witnesses: witnesses(c.id),
  }));
}

/** An aligned plain-text table, one row per check in registry (report) order. */
export function renderList(): string {
  const head = ["ANCHOR", "LEVEL", "TITLE", "PROBES", "WITNESSES"];
  const rows = listJson().map((e) => [e.id, e.level, e.title, e.probes.join(", "), e.witnesses.join(", ")]);
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, k) => (k === cells.length - 1 ? c : c.padEnd(widths[k]!)))
      .join("  ")
      .trimEnd();
  const excluded = Object.keys(EXCLUDED);
  return [
    line(head),
    ...rows.map(line),
    "",
    `${rows.length} checks. ${excluded.length} anchors have no check (${excluded.join(", ")}): explain <anchor> says why.`,
  ].join("\n");
}
