import { EXIT_MEANINGS } from "../verdict/exit.ts";
import { EXCLUDED, HOST_HALF_UNCHECKED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { MODES } from "../../misbehave/index.ts";
import { VARIANTS } from "../reference/variants.ts";
import { PROBES } from "../probe/index.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { HOST_MODES } from "../../misbehave/host/index.ts";
import { SCENARIOS } from "../protocol/host-scenarios.ts";
import { SCORING } from "./scoring.generated.ts";
import { coverageMarkdown } from "./coverage.ts";
import { readingsMarkdown } from "./readings.ts";
import { hostWitnesses, witnesses } from "./witnesses.ts";
import { cell } from "./wrap.ts";
import { needsLine, providersNeeded, workNeeded, writesNeeded } from "./host-needs.ts";

export { hostWitnesses, witnesses };

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

/** What a mode must make the suite say: the checks it fails, those it makes warn, and those it makes inform. */
export function expectation(m: { expectFail: string[]; expectWarn?: string[]; expectInfo?: string[]; expectUnobserved?: string[] }): string {
  return [
    ...m.expectFail,
    ...(m.expectWarn ?? []).map((id) => `${id} (warn)`),
    ...(m.expectInfo ?? []).map((id) => `${id} (info)`),
    ...(m.expectUnobserved ?? []).map((id) => `${id} (not observed)`),
  ].join(", ");
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

export function scenariosTable(): string {
  return table(
    ["Scenario", "What the scenario provider declares and does", "Over"],
    SCENARIOS.map((sc) => [`\`${sc.name}\``, sc.summary, sc.only ?? "stdio and HTTP"]),
  );
}

export function hostChecksTable(): string {
  return table(
    ["Host check", "Level", "Requirement checked", "Scenarios", "Witnesses (host modes)"],
    HOST_CHECKS.map((c) => [
      `\`${c.id}\``,
      c.level,
      c.title,
      c.scenarios.map((sc) => sc.name).join(", "),
      hostWitnesses(c.id)
        .map((w) => `\`${w}\``)
        .join(", "),
    ]),
  );
}

/** Per host check: what the host must do for it to judge rather than skip (docs/hosts.md). */
export function hostNeedsTable(): string {
  return table(
    ["Host check", "Providers the host must name", "Files it must write", "Work in a scenario"],
    HOST_CHECKS.map((c) => [`\`${c.id}\``, providersNeeded(c), writesNeeded(c), workNeeded(c)]),
  );
}

export function hostModesTable(): string {
  return table(
    ["Host mode", "Defect", "Must fail"],
    HOST_MODES.map((m) => [`\`${m.name}\``, m.defect + (m.only ? ` (${m.only} only)` : ""), expectation(m)]),
  );
}

/** Per host check: the sentence it enforces, the scenarios it reads, what it needs from the host and how it scores (its module's own words). */
export function hostCheckDetails(): string {
  return HOST_CHECKS.map((c) =>
    [
      `#### \`${c.id}\` (${c.level}): ${c.title}`,
      "",
      `> ${c.requirement}`,
      "",
      `Scenarios: ${c.scenarios.map((sc) => `\`${sc.name}\``).join(", ")}`,
      "",
      needsLine(c),
      "",
      SCORING[c.id] ?? "",
      "",
      `Witnesses: ${
        hostWitnesses(c.id)
          .map((w) => `\`${w}\``)
          .join(", ") || "none"
      }`,
    ].join("\n"),
  ).join("\n\n");
}

export function hostHalvesTable(): string {
  return table(
    ["Anchor", "Its provider half is checked; why its host half is not"],
    Object.entries(HOST_HALF_UNCHECKED).map(([a, why]) => [`\`${a}\``, why]),
  );
}

export function exitCodesTable(): string {
  return table(
    ["Code", "Meaning"],
    EXIT_MEANINGS.map(([code, meaning]) => [String(code), meaning]),
  );
}

export const TABLES: Record<string, () => string> = {
  "exit-codes": exitCodesTable,
  checks: checksTable,
  "check-details": checkDetails,
  modes: modesTable,
  variants: variantsTable,
  probes: probesTable,
  excluded: excludedTable,
  "host-scenarios": scenariosTable,
  "host-checks": hostChecksTable,
  "host-needs": hostNeedsTable,
  "host-modes": hostModesTable,
  "host-check-details": hostCheckDetails,
  "host-halves": hostHalvesTable,
  coverage: coverageMarkdown,
  readings: readingsMarkdown,
};

/** Which generated tables each documentation page holds: every table in exactly one page. */
export const DOC_PAGES: Record<string, string[]> = {
  "README.md": ["exit-codes"],
  "docs/checks.md": ["probes", "checks", "check-details", "excluded", "host-halves", "variants", "modes"],
  "docs/hosts.md": ["host-scenarios", "host-checks", "host-needs", "host-check-details", "host-modes"],
  "docs/coverage.md": ["coverage"],
  "docs/readings.md": ["readings"],
};

/** Replace each `<!-- NAME:begin -->…<!-- NAME:end -->` block of `names` in `page` (its path, for the error) with its generated table. */
export function renderTables(text: string, page: string, names: string[] = DOC_PAGES[page] ?? []): string {
  let out = text;
  for (const name of names) {
    const make = TABLES[name];
    if (!make) throw new Error(`no generated table is called ${name}`);
    const re = new RegExp(`(<!-- ${name}:begin -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`${page} has no ${name} table markers`);
    out = out.replace(re, (_m, a: string, b: string) => `${a}\n${make()}\n${b}`);
  }
  return out;
}
