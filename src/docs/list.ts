/**
 * `list`: every registered check with the probes that feed it and the
 * misbehave modes that witness it (must make it fail). Pure: returns text.
 */
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { type Level } from "../../checks/kit/check.ts";
import { witnesses } from "./tables.ts";
import { wrap } from "./wrap.ts";
import { counted } from "../verdict/words.ts";

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

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, k) => (k === cells.length - 1 ? c : c.padEnd(widths[k]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/**
 * An aligned plain-text table, one row per check in registry (report) order,
 * ending with a newline. Given a terminal's width, a table wider than it
 * counts probes and witnesses instead of naming them, and cuts titles to fit.
 */
export function renderList(width?: number): string {
  const entries = listJson();
  let lines = table(
    ["ANCHOR", "LEVEL", "TITLE", "PROBES", "WITNESSES"],
    entries.map((e) => [e.id, e.level, e.title, e.probes.join(", "), e.witnesses.join(", ")]),
  );
  let narrowed = false;
  if (width !== undefined && lines.some((l) => l.length > width)) {
    narrowed = true;
    const counts = (e: ListEntry) => [String(e.probes.length), String(e.witnesses.length)];
    const fixed = table(
      ["ANCHOR", "LEVEL", "", "PROBES", "WITNESSES"],
      entries.map((e) => [e.id, e.level, "", ...counts(e)]),
    )[0]!.length;
    const room = Math.max(10, width - fixed);
    const cut = (s: string) => (s.length > room ? `${s.slice(0, room - 1)}…` : s);
    lines = table(
      ["ANCHOR", "LEVEL", "TITLE", "PROBES", "WITNESSES"],
      entries.map((e) => [e.id, e.level, cut(e.title), ...counts(e)]),
    );
  }
  const excluded = Object.keys(EXCLUDED);
  const prose = [
    `${counted(entries.length, "check")}. ${excluded.length} anchors have no check (${excluded.join(", ")}): explain <anchor> says why.`,
    ...(narrowed ? ["Probes and witnesses are counted to fit the terminal: list --json, or a wider terminal, names them."] : []),
  ];
  return [...lines, "", ...prose.flatMap((p) => (width === undefined ? [p] : wrap(p, width))), ""].join("\n");
}
