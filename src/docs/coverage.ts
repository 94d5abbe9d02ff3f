/**
 * Coverage: every normative sentence of the spec (src/docs/normative.generated.ts)
 * beside what holds it (coverage-map.ts): its checks, their probes or
 * scenarios, the misbehave modes that prove each can fail, or why nothing
 * can. One mapping, two renderings: docs/coverage.md and `list --coverage`.
 * Pure: registry in, text out.
 */
import { COVERAGE, type Placement, REASONS, type Reason } from "./coverage-map.ts";
import { CHECKS } from "../../checks/index.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { SENTENCES } from "./normative.generated.ts";
import { quotes, type Sentence } from "./normative.ts";
import { hostWitnesses, witnesses } from "./witnesses.ts";
import { cell, wrap } from "./wrap.ts";
import { counted } from "../verdict/words.ts";

export interface CoverageRow extends Sentence {
  by: string[];
  /** Per check: what feeds it (probes, or scenarios for a host check) and its witnesses. */
  held: { id: string; feeds: string[]; modes: string[] }[];
  why?: Reason;
  note?: string;
}

/** The placements that name a sentence. */
export const placementsOf = (s: Sentence): Placement[] => COVERAGE.filter((p) => p.in === s.text && quotes(p.quote, s));

function feedsOf(id: string): string[] {
  const c = CHECKS.find((k) => k.id === id);
  if (c) return c.probes.map((p) => p.name);
  const h = HOST_CHECKS.find((k) => k.id === id);
  return h ? h.scenarios.map((sc) => sc.name) : [];
}

export function coverageRows(): CoverageRow[] {
  return SENTENCES.map((s) => {
    const p = placementsOf(s)[0];
    const by = [...(p?.by ?? [])];
    return {
      ...s,
      by,
      held: by.map((id) => ({ id, feeds: feedsOf(id), modes: id.startsWith("host:") ? hostWitnesses(id) : witnesses(id) })),
      ...(p?.why ? { why: p.why } : {}),
      ...(p?.note ? { note: p.note } : {}),
    };
  });
}

/** The counts at the top: sentences, held wholly, held in part, and not held, by reason. */
export function coverageCounts(rows: readonly CoverageRow[]): {
  sentences: number;
  held: number;
  partly: number;
  none: number;
  reasons: Partial<Record<Reason, number>>;
} {
  const reasons: Partial<Record<Reason, number>> = {};
  for (const r of rows) if (r.why) reasons[r.why] = (reasons[r.why] ?? 0) + 1;
  return {
    sentences: rows.length,
    held: rows.filter((r) => r.by.length > 0 && !r.why).length,
    partly: rows.filter((r) => r.by.length > 0 && r.why).length,
    none: rows.filter((r) => r.by.length === 0).length,
    reasons,
  };
}

function summary(rows: readonly CoverageRow[]): string[] {
  const c = coverageCounts(rows);
  return [
    `${counted(c.sentences, "normative sentence")} (an uppercase MUST, MUST NOT, SHOULD or SHOULD NOT in protocol-surface, context-reuse or representations-change): ${c.held} held by checks, ${c.partly} held in part, ${c.none} held by none.`,
    `Not held, wholly or in part: ${(Object.keys(REASONS) as Reason[])
      .filter((r) => c.reasons[r])
      .map((r) => `${c.reasons[r]} ${r} (${REASONS[r]})`)
      .join("; ")}.`,
  ];
}

const where = (r: Sentence): string => `${r.text}${r.anchor ? ` ${r.anchor}` : ""}`;

/** docs/coverage.md's generated part: the counts, then a table with a row per sentence. */
export function coverageMarkdown(): string {
  const rows = coverageRows();
  const held = (r: CoverageRow): string =>
    r.held.map((h) => `\`${h.id}\` (${h.modes.length > 0 ? h.modes.map((m) => `\`${m}\``).join(", ") : "no mode"})`).join("; ");
  const why = (r: CoverageRow): string => (r.why ? `**${r.why}**: ${r.note ?? REASONS[r.why]}` : "");
  return [
    ...summary(rows),
    "",
    "| # | Where | Keyword | Sentence | Held by (witness modes) | Not held, and why |",
    "|---|---|---|---|---|---|",
    ...rows.map((r, k) => `| ${k + 1} | ${where(r)} | ${r.keywords.join(", ")} | ${cell(r.sentence)} | ${cell(held(r))} | ${cell(why(r))} |`),
  ].join("\n");
}

/** `list --coverage`: the same, for a terminal: a paragraph per sentence, wrapped to the width. */
export function renderCoverage(width = 100): string {
  const rows = coverageRows();
  const out: string[] = [...summary(rows).flatMap((p) => wrap(p, width)), ""];
  for (const [k, r] of rows.entries()) {
    // A hanging indent: the sentence's continuation lines sit under its text, with what holds it.
    const [first = "", ...more] = wrap(`${k + 1}. ${where(r)} · ${r.keywords.join(", ")} · ${r.sentence}`, width, "   ");
    out.push(first.slice(3), ...more);
    if (r.held.length > 0)
      out.push(...wrap(`held by: ${r.held.map((h) => `${h.id} (${h.modes.length > 0 ? h.modes.join(", ") : "no mode"})`).join("; ")}`, width, "   "));
    if (r.why) out.push(...wrap(`not held (${r.why}): ${r.note ?? REASONS[r.why]}`, width, "   "));
  }
  return `${out.join("\n")}\n`;
}
