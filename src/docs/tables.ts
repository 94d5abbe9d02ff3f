import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { MODES } from "../../misbehave/index.ts";
import { VARIANTS } from "../../fixtures/variants.ts";
import { PROBES } from "../probe/index.ts";

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

/** Modes that must make a check fail (or, for a rule with no keyword or a SHOULD sub-rule, warn): its witnesses. */
export function witnesses(id: string): string[] {
  return MODES.filter((m) => m.expectFail.includes(id) || (m.expectWarn ?? []).includes(id)).map((m) => m.name);
}

/** What a mode must make the suite say: the checks it fails, and those it makes warn. */
export function expectation(m: { expectFail: string[]; expectWarn?: string[] }): string {
  return [...m.expectFail, ...(m.expectWarn ?? []).map((id) => `${id} (warn)`)].join(", ");
}

export function checksTable(): string {
  return table(
    ["Check", "Level", "Requirement checked", "Probes", "Witnesses (misbehave modes)"],
    CHECKS.map((c) => [
      `\`${c.id}\``,
      c.level,
      c.title,
      c.probes.map((p) => p.name).join(", "),
      witnesses(c.id)
        .map((w) => `\`${w}\``)
        .join(", "),
    ]),
  );
}

export function modesTable(): string {
  return table(
    ["Mode", "Defect", "Must fail"],
    MODES.map((m) => [`\`${m.name}\``, m.defect, expectation(m)]),
  );
}

export function variantsTable(): string {
  return table(
    ["Variant", "Its honest shape"],
    VARIANTS.map((v) => [`\`${v.name}\``, v.shape]),
  );
}

export function probesTable(): string {
  return table(
    ["Probe", "What it sends"],
    PROBES.map((p) => [`\`${p.name}\``, p.summary]),
  );
}

export function excludedTable(): string {
  return table(
    ["Anchor", "Why there is no check"],
    Object.entries(EXCLUDED).map(([a, why]) => [`\`${a}\``, why]),
  );
}

/** Per check: the spec sentence it enforces, the stimuli its probes send, and the modes that prove it can fail. */
export function checkDetails(): string {
  return CHECKS.map((c) => {
    const probes = c.probes.map((p) => `- \`${p.name}\`: ${p.summary}`);
    const ws = witnesses(c.id).map((w) => `\`${w}\``);
    return [
      `#### \`${c.id}\` (${c.level}): ${c.title}`,
      "",
      `> ${c.requirement}`,
      "",
      "Stimuli:",
      "",
      ...probes,
      "",
      `Witnesses: ${ws.join(", ") || "none"}`,
    ].join("\n");
  }).join("\n\n");
}

export const TABLES: Record<string, () => string> = {
  checks: checksTable,
  "check-details": checkDetails,
  modes: modesTable,
  variants: variantsTable,
  probes: probesTable,
  excluded: excludedTable,
};

/** Replace each `<!-- NAME:begin -->…<!-- NAME:end -->` block with its generated table. */
export function renderTables(readme: string): string {
  let out = readme;
  for (const [name, make] of Object.entries(TABLES)) {
    const re = new RegExp(`(<!-- ${name}:begin -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`README has no ${name} table markers`);
    out = out.replace(re, (_m, a: string, b: string) => `${a}\n${make()}\n${b}`);
  }
  return out;
}
