import type { RunReport } from "../verdict/report.ts";
import { policyOf, protocolOf, targetLine } from "./describe.ts";
import { type CheckResult, type EvidenceResult } from "../verdict/status.ts";
import { verdictWords } from "./verdict-words.ts";
import { tally } from "../verdict/words.ts";

/**
 * TAP version 14: one test point per check, in report order. fail is `not ok`
 * with a YAML diagnostics block; skip is `ok … # SKIP reason`; warn and info
 * are `ok` with diagnostics that open with a `# warn` / `# info` comment.
 * Every YAML scalar is a double-quoted string (JSON, plus escapes for what
 * YAML will not take raw), so provider text cannot break the block.
 */

/**
 * JSON.stringify is a YAML double-quoted scalar, except that YAML also wants
 * DEL, C1 controls, NEL, the Unicode line/paragraph separators and BOM escaped.
 */
function q(s: string): string {
  return JSON.stringify(s).replace(/[\u007F-\u009F\u2028\u2029\uFEFF]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** One line of the TAP stream: no line breaks, no control characters. */
function oneLine(s: string): string {
  return s
    .replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, " ")
    .replace(/[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/gu, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A test point's description: `#` would start a directive and `\` escapes it (TAP 14). */
function description(s: string): string {
  return oneLine(s).replace(/\\/g, "\\\\").replace(/#/g, "\\#");
}

function evidenceYaml(e: EvidenceResult): string[] {
  const out = [`    - status: ${q(e.status)}`, `      message: ${q(e.message)}`];
  if (e.level !== undefined) out.push(`      level: ${q(e.level)}`);
  if (e.basis !== undefined) out.push(`      basis: ${q(e.basis)}`);
  if (e.untestable) out.push(`      untestable: true`);
  if (e.expected !== undefined) out.push(`      expected: ${q(e.expected)}`);
  if (e.actual !== undefined) out.push(`      actual: ${q(e.actual)}`);
  out.push(`      lines: [${e.lines.join(", ")}]`);
  return out;
}

function diagnostics(r: CheckResult): string[] {
  const out = ["  ---"];
  if (r.status !== "fail") out.push(`  # ${r.status}`);
  out.push(`  id: ${q(r.id)}`, `  status: ${q(r.status)}`, `  level: ${q(r.level)}`);
  const requirement = r.requirement;
  if (requirement) out.push(`  requirement: ${q(requirement)}`);
  out.push(`  untestable: ${r.untestable}`);
  const findings = r.evidence.filter((e) => e.status !== "pass");
  out.push(findings.length === 0 ? "  evidence: []" : "  evidence:", ...findings.flatMap(evidenceYaml));
  out.push("  ...");
  return out;
}

function testPoint(r: CheckResult, n: number): string[] {
  const desc = description(`${r.id}: ${r.title}`);
  switch (r.status) {
    case "pass":
      return [`ok ${n} - ${desc}`];
    case "skip":
      return [`ok ${n} - ${desc} # SKIP ${oneLine(r.reason ?? "skipped")}`];
    case "fail":
      return [`not ok ${n} - ${desc}`, ...diagnostics(r)];
    // Not a pass: the rule was not seen. TAP has no third outcome, so the point fails and its directive-free description says why.
    case "unobserved":
      return [`not ok ${n} - ${desc} (not observed)`, ...diagnostics(r)];
    case "warn":
    case "info":
      return [`ok ${n} - ${desc}`, ...diagnostics(r)];
  }
}

export function renderTap(r: RunReport): string {
  const s = r.summary;
  const verdict = r.could_not_run ? `${verdictWords(r)}: ${r.could_not_run_reason ?? "the provider could not be started"}` : verdictWords(r);
  return (
    [
      "TAP version 14",
      `1..${r.results.length}`,
      `# cgp-conform ${oneLine(r.tool.version)} · ${oneLine(protocolOf(r))} · ${oneLine(targetLine(r.target))}`,
      ...r.results.flatMap((c, i) => testPoint(c, i + 1)),
      `# ${tally(s)}`,
      ...(policyOf(r) ? [`# policy: ${oneLine(policyOf(r)!)}`] : []),
      `# ${oneLine(verdict)}`,
    ].join("\n") + "\n"
  );
}
