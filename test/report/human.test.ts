import t from "tap";
import { Chalk } from "chalk";
import { renderHuman } from "../../src/report/human.ts";
import { reportValidator } from "../../src/schema/compile.ts";
import { ev, synthetic } from "../helpers/reports.ts";
import { parseBaseline } from "../../src/verdict/baseline.ts";
import { applyPolicy } from "../../src/verdict/policy.ts";
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

t.test("a baseline's summary is shown for a run that was made, not for one that could not be", async (t) => {
  const baseline = parseBaseline("F4\n", { ids: ["F4"], excluded: {} });
  const results = [check("F4", [ev("fail", "recorded_at outside the profile", { lines: [4] })], { status: "fail" })];
  const made = applyPolicy(synthetic(results), { strict: false, baseline });
  t.match(renderHuman(made, plain), /baseline: 1 baselined check fails as expected: F4/);
  const cut = applyPolicy(synthetic(results, { could_not_run: true, could_not_run_reason: "the provider could not be started: ENOENT" }), {
    strict: false,
    baseline,
  });
  const text = renderHuman(cut, plain);
  t.notMatch(text, /fails as expected/, "nothing was judged against the baseline");
  t.match(text, /COULD NOT RUN: the provider could not be started: ENOENT \(exit 3\)/);
});
