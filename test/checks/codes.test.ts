/** The guard every check's cases run: a code outside its tables, or an uncoded finding, fails. */
import t from "tap";
import type { Test } from "tap";
import { codesKnown } from "../helpers/codes.ts";
import { findings } from "../../checks/kit/findings.ts";
import type { CheckResult, EvidenceResult } from "../../src/verdict/status.ts";

const table = findings({ bad: { says: () => "bad" } }).table;
const ev = (code?: string): EvidenceResult =>
  // An uncoded finding is what the type forbids: the guard still catches one made past it (a cast, a spread of something else).
  ({ ok: false, status: "fail", params: {}, message: "m", lines: [2], ...(code ? { code } : {}) }) as EvidenceResult;
const result = (...evidence: EvidenceResult[]): CheckResult => ({
  id: "X1",
  title: "",
  level: "MUST",
  requirement: "",
  status: "fail",
  untestable: false,
  evidence,
});
function failures(check: { id: string; findings?: typeof table }, r: CheckResult): string[] {
  const seen: string[] = [];
  codesKnown({ fail: (m: string) => seen.push(m) } as unknown as Test, check, r);
  return seen;
}

t.same(failures({ id: "X1", findings: table }, result(ev("X1.bad"), ev("X1.held"))), [], "its own code and a shared one");
t.match(failures({ id: "X1", findings: table }, result(ev("X1.worse"))), [/X1.worse is no code/], "a code its table lacks");
t.match(failures({ id: "X1", findings: table }, result(ev("Y2.bad"))), [/Y2.bad is no code/], "another check's id");
t.match(failures({ id: "X1", findings: table }, result(ev())), [/carries no code/], "an uncoded finding");
t.match(failures({ id: "X1" }, result(ev())), [/carries no code/], "an uncoded finding of a check without a table");
t.same(failures({ id: "X1" }, result(ev("X1.held"))), [], "a check without a table may make the shared findings");
t.throws(() => findings({ Bad_Code: { says: () => "" } }), /not lowercase-hyphenated/, "a table's codes are codes");
