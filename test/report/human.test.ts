import t from "tap";
import { Chalk } from "chalk";
import { renderHuman } from "../../src/report/human.ts";
import { reportValidator } from "../../src/schema/compile.ts";
import { ev, synthetic } from "../helpers/reports.ts";
import { type CheckResult, type EvidenceResult } from "../../src/verdict/status.ts";

const plain = new Chalk({ level: 0 });

const check = (id: string, evidence: EvidenceResult[], over: Partial<CheckResult> = {}): CheckResult => ({
  id,
  title: `check ${id}`,
  level: "MUST",
  requirement: "The rule, quoted.",
  status: "warn",
  untestable: false,
  evidence,
  ...over,
});

const report = synthetic([
  check("D1", [ev("warn", "digest is not the SHA-256 of the content", { level: "NONE", lines: [4] })]),
  check("R1", [ev("warn", "no bad_request", { level: "SHOULD", lines: [5] })]),
]);

t.test("evidence for an outcome with no keyword is labelled as such, never [SHOULD]", async (t) => {
  const text = renderHuman(report, plain);
  t.match(text, /\[no keyword\] digest is not the SHA-256 of the content/);
  t.notMatch(text, /\[SHOULD\] digest is not/);
  t.notMatch(text, /\[NONE\]/);
  t.match(text, /\[SHOULD\] no bad_request/);
});

t.test("the report schema accepts level NONE, and nothing outside the four levels", async (t) => {
  const validate = reportValidator();
  const json = JSON.parse(JSON.stringify(report));
  t.ok(validate(json), JSON.stringify(validate.errors));
  json.results[0].evidence[0].level = "WEAK";
  t.notOk(validate(json));
});
