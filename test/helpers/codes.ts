/**
 * A check's findings and its table agree: every code its evidence carries is
 * the check's id and a name from its table (or the table every check shares),
 * and a check that has a table codes every finding it makes.
 */
import type { Test } from "tap";
import type { Table } from "../../checks/kit/findings.ts";
import { common } from "../../checks/kit/common-findings.ts";
import type { CheckResult } from "../../src/verdict/status.ts";

export function codesKnown(t: Test, check: { id: string; findings?: Table }, r: CheckResult): void {
  for (const e of r.evidence) {
    if (e.code === undefined) {
      if (check.findings) t.fail(`a finding of ${check.id} carries no code: ${e.message}`);
      continue;
    }
    const prefix = `${check.id}.`;
    const name = e.code.startsWith(prefix) ? e.code.slice(prefix.length) : undefined;
    const known = name !== undefined && (Object.hasOwn(check.findings ?? {}, name) || Object.hasOwn(common.table, name));
    if (!known) t.fail(`${e.code} is no code of ${check.id}'s table or the shared one`, { message: e.message });
  }
}
