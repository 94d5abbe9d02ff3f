/**
 * A check's findings and its table agree: every code its evidence carries is
 * the check's id and a name from its table (or the table every check shares),
 * and every finding carries one.
 */
import type { Test } from "tap";
import type { Table } from "../../checks/kit/findings.ts";
import { common } from "../../checks/kit/common-findings.ts";
import type { CheckResult } from "../../src/verdict/status.ts";

export function codesKnown(t: Test, check: { id: string; findings?: Table }, r: CheckResult): void {
  for (const e of r.evidence) {
    if (typeof e.code !== "string") {
      t.fail(`a finding of ${check.id} carries no code: ${e.message}`);
      continue;
    }
    const prefix = `${check.id}.`;
    const name = e.code.startsWith(prefix) ? e.code.slice(prefix.length) : undefined;
    const known = name !== undefined && (Object.hasOwn(check.findings ?? {}, name) || Object.hasOwn(common.table, name));
    if (!known) t.fail(`${e.code} is no code of ${check.id}'s table or the shared one`, { message: e.message });
    // The report has one naming style: a param named by the check is snake_case, as every key of the report is.
    for (const k of ownKeys(e.params)) if (/[A-Z]/.test(k)) t.fail(`${e.code}: param ${k} is not snake_case`);
  }
}

/** The keys a check names in params: the top level, and within objects of its own below (not wire values, which it quotes). */
function ownKeys(params: unknown, depth = 0): string[] {
  if (typeof params !== "object" || params === null || Array.isArray(params) || depth > 2) return [];
  return Object.entries(params).flatMap(([k, v]) => [k, ...(["query", "value", "id", "declared", "score"].includes(k) ? [] : ownKeys(v, depth + 1))]);
}
