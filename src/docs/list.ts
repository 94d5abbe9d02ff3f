/**
 * `list`: every registered check with the probes that feed it and the
 * misbehave modes that witness it (must make it fail). Pure: returns text.
 */
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { type Level } from "../../checks/kit/check.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { SCENARIOS } from "../protocol/host-scenarios.ts";
import { hostWitnesses, witnesses } from "./witnesses.ts";
import { wrap } from "./wrap.ts";
import { counted } from "../verdict/words.ts";

export interface ListEntry {
  id: string;
  /** provider: run by stdio, http and reference; host: run by cgp-conform host. */
  side: "provider" | "host";
  level: Level;
  title: string;
  requirement: string;
  /** Provider checks: the probes that feed it. */
  probes: string[];
  /** Host checks: the scenarios it reads. */
  scenarios?: string[];
  /** Misbehave modes (host modes, for a host check) whose expectFail includes this check. */
  witnesses: string[];
}

export function listJson(): ListEntry[] {
  return [
    ...CHECKS.map((c) => ({
      id: c.id,
      side: "provider" as const,
      level: c.level,
      title: c.title,
      requirement: c.requirement,
      probes: c.probes.map((p) => p.name),
      witnesses: witnesses(c.id),
    })),
    ...HOST_CHECKS.map((c) => ({
      id: c.id,
      side: "host" as const,
      level: c.level,
      title: c.title,
      requirement: c.requirement,
      probes: [],
      scenarios: c.scenarios.map((s) => s.name),
      witnesses: hostWitnesses(c.id),
    })),
  ];
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
  const all = listJson();
  const provider = renderTable(
    all.filter((e) => e.side === "provider"),
    "PROBES",
    width,
  );
  const host = renderTable(
    all.filter((e) => e.side === "host"),
    "SCENARIOS",
    width,
  );
  const excluded = Object.keys(EXCLUDED);
  const prose = [
    `${counted(provider.count, "check")} of providers (stdio, http, reference) and ${counted(host.count, "host check")} (cgp-conform host). ${excluded.length} anchors have no check (${excluded.join(", ")}): explain <anchor> says why.`,
    ...(provider.narrowed || host.narrowed
      ? ["Probes, scenarios and witnesses are counted to fit the terminal: list --json, or a wider terminal, names them."]
      : []),
  ];
  return [...provider.lines, "", ...host.lines, "", ...prose.flatMap((p) => (width === undefined ? [p] : wrap(p, width))), ""].join("\n");
}

/** A host check's scenarios, in few words: "all 16", "all but correlation", or the names. */
function scenarioWords(names: readonly string[]): string[] {
  const missing = SCENARIOS.filter((sc) => !names.includes(sc.name)).map((sc) => sc.name);
  if (missing.length === 0) return [`all ${SCENARIOS.length}`];
  if (missing.length <= 2 && names.length > missing.length) return [`all but ${missing.join(", ")}`];
  return [...names];
}

function renderTable(entries: ListEntry[], feeds: "PROBES" | "SCENARIOS", width?: number): { lines: string[]; narrowed: boolean; count: number } {
  const fed = (e: ListEntry): string[] => (feeds === "PROBES" ? e.probes : scenarioWords(e.scenarios ?? []));
  let lines = table(
    ["ANCHOR", "LEVEL", "TITLE", feeds, "WITNESSES"],
    entries.map((e) => [e.id, e.level, e.title, fed(e).join(", "), e.witnesses.join(", ")]),
  );
  let narrowed = false;
  if (width !== undefined && lines.some((l) => l.length > width)) {
    narrowed = true;
    const counts = (e: ListEntry) => [String(feeds === "PROBES" ? e.probes.length : (e.scenarios ?? []).length), String(e.witnesses.length)];
    const fixed = table(
      ["ANCHOR", "LEVEL", "", feeds, "WITNESSES"],
      entries.map((e) => [e.id, e.level, "", ...counts(e)]),
    )[0]!.length;
    const room = Math.max(10, width - fixed);
    const cut = (s: string) => (s.length > room ? `${s.slice(0, room - 1)}…` : s);
    lines = table(
      ["ANCHOR", "LEVEL", "TITLE", feeds, "WITNESSES"],
      entries.map((e) => [e.id, e.level, cut(e.title), ...counts(e)]),
    );
  }
  return { lines, narrowed, count: entries.length };
}
