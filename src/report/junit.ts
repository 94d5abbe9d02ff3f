import { levelTag } from "../verdict/words.ts";
import type { RunReport } from "../verdict/report.ts";
import { policyOf, targetOf } from "./describe.ts";
import { type CheckResult, type EvidenceResult } from "../verdict/status.ts";
import { verdictWords } from "./verdict-words.ts";

/**
 * JUnit XML, as Jenkins, GitLab and the GitHub test-reporter actions read it:
 * one <testsuite> of one <testcase> per check. A fail is a <failure>, a skip
 * is <skipped>; warn and info pass, with their evidence in <system-out>.
 * The report's verdict is not re-decided here: failures are the report's fails.
 */

/**
 * Characters XML 1.0 forbids anywhere (C0 controls but tab/LF/CR, lone
 * surrogates, U+FFFE/U+FFFF) are replaced by a visible `\uXXXX`, so the
 * evidence still says what the provider sent.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu;

function visible(s: string): string {
  return s.replace(FORBIDDEN, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Character data. `>` is always escaped, so `]]>` can never appear raw. */
function text(s: string): string {
  return visible(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value in double quotes; whitespace is kept as character references (a parser would normalise it away). */
function attr(s: string): string {
  return text(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
}

function indent(s: string, pad: string): string {
  return s.split("\n").join(`\n${pad}`);
}

function evidenceText(e: EvidenceResult): string {
  const tag = `${e.status.toUpperCase()}${levelTag(e.level, e.basis) ? ` [${levelTag(e.level, e.basis)}]` : ""}`;
  const out = [`${tag}: ${e.untestable ? "untestable: " : ""}${indent(e.message, "  ")}`];
  if (e.expected !== undefined) out.push(`  expected: ${indent(e.expected, "            ")}`);
  if (e.actual !== undefined) out.push(`  actual:   ${indent(e.actual, "            ")}`);
  if (e.lines.length > 0) out.push(`  transcript lines: ${e.lines.join(", ")}`);
  return out.join("\n");
}

/** What a CI reader needs to act on a check: the rule, then every finding that was not a pass. */
function detail(r: CheckResult): string {
  const head = [`${r.id} [${r.level}]: ${r.title}`];
  const requirement = r.requirement;
  if (requirement) head.push(`requirement: ${requirement}`);
  if (r.untestable) head.push("untestable: a precondition broke, so the rule could not be observed");
  const findings = r.evidence.filter((e) => e.status !== "pass");
  return [head.join("\n"), ...findings.map(evidenceText)].join("\n\n");
}

function firstFinding(r: CheckResult): string {
  const findings = r.evidence.filter((e) => e.status === r.status);
  const first = findings[0] ?? r.evidence.find((e) => e.status !== "pass");
  if (!first) return r.title;
  const more = findings.length > 1 ? ` (+${findings.length - 1} more)` : "";
  return `${first.untestable ? "not observed: " : ""}${first.message}${more}`;
}

/** JUnit's time is in seconds; a report from before timings has none (0). */
function seconds(ms: number | undefined): string {
  return ms === undefined ? "0" : (ms / 1000).toFixed(3);
}

function testcase(r: CheckResult, classname: string): string {
  const open = `    <testcase classname="${attr(classname)}" name="${attr(`${r.id}: ${r.title}`)}" time="${seconds(r.time_ms)}"`;
  switch (r.status) {
    case "pass":
      return `${open}/>`;
    case "skip":
      return `${open}>\n      <skipped message="${attr(r.reason ?? "skipped")}"/>\n    </testcase>`;
    case "fail":
      return `${open}>\n      <failure message="${attr(firstFinding(r))}" type="${attr(r.level)}">${text(detail(r))}</failure>\n    </testcase>`;
    // JUnit's own distinction: a failure is an assertion that did not hold; an error, a test that could not be carried out.
    case "unobserved":
      return `${open}>\n      <error message="${attr(firstFinding(r))}" type="not observed">${text(detail(r))}</error>\n    </testcase>`;
    case "warn":
    case "info":
      return `${open}>\n      <system-out>${text(`${r.status.toUpperCase()}\n${detail(r)}`)}</system-out>\n    </testcase>`;
  }
}

function verdict(r: RunReport): string {
  return verdictWords(r);
}

export function renderJunit(r: RunReport): string {
  const s = r.summary;
  const classname = `cgp-conform.${r.target.kind}`;
  const counts = `tests="${s.total}" failures="${s.fail}" errors="${s.unobserved}" skipped="${s.skip}" time="${seconds(r.duration_ms)}"`;
  const properties: Array<[string, string]> = [
    ["cgp-conform.version", r.tool.version],
    ["host_version", r.host_version],
    ["target.kind", r.target.kind],
    [r.target.kind === "http" ? "target.url" : "target.command", targetOf(r.target)],
    ...(r.target.kind === "host" ? [["target.transport", r.target.transport] as [string, string]] : []),
    ["timeout_ms", String(r.timeout_ms)],
    ...(r.exploration
      ? ([
          ["depth", r.exploration.depth],
          ["exchanges", String(r.exploration.exchanges)],
        ] as Array<[string, string]>)
      : []),
    ["verdict", verdict(r)],
    ["conformant", String(r.conformant)],
    ["could_not_run", String(r.could_not_run)],
    ...(r.could_not_run_reason !== undefined ? [["could_not_run_reason", r.could_not_run_reason] as [string, string]] : []),
    ...(policyOf(r) ? [["policy", policyOf(r)!] as [string, string]] : []),
    ...(r.consent.needed.length > 0
      ? ([
          ["consent.needed", r.consent.needed.join(", ")],
          ["consent.granted", r.consent.granted.join(", ")],
          ["consent.missing", r.consent.missing.join(", ")],
        ] as Array<[string, string]>)
      : []),
  ];
  return (
    [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<testsuites name="cgp-conform" ${counts}>`,
      `  <testsuite name="cgp-conform" ${counts}>`,
      `    <properties>`,
      ...properties.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`),
      `    </properties>`,
      ...r.results.map((c) => testcase(c, classname)),
      `  </testsuite>`,
      `</testsuites>`,
    ].join("\n") + "\n"
  );
}
