/** One decision: outcome, exit code and reasons from results, run facts and policy. */
import t from "tap";
import { decide } from "../../src/verdict/decide.ts";
import { parseBaseline } from "../../src/verdict/baseline.ts";
import type { CheckResult, Status } from "../../src/verdict/status.ts";

const r = (id: string, status: Status, level: CheckResult["level"] = "MUST"): CheckResult => ({
  id,
  title: id,
  level,
  requirement: "",
  status,
  untestable: status === "unobserved",
  evidence: [{ ok: status === "pass", status, code: `${id}.finding`, params: {}, message: `${id} ${status}`, lines: [1] }],
});
const baseline = (text: string) => parseBaseline(text, { ids: ["H1", "B3", "F5", "R1"], excluded: {} });

t.test("no failure: conformant, exit 0, nothing to explain", async (t) => {
  const d = decide([r("H1", "pass"), r("B3", "skip"), r("F5", "warn", "SHOULD")], {});
  t.same([d.outcome, d.exit_code, d.conformant, d.reasons], ["conformant", 0, true, []]);
  t.equal(d.policy, undefined, "no policy given, none recorded");
});

t.test("a failure and a rule not observed: not conformant, exit 1, each named", async (t) => {
  const d = decide([r("H1", "fail"), r("B3", "unobserved"), r("F5", "pass")], {});
  t.same([d.outcome, d.exit_code, d.conformant], ["not-conformant", 1, false]);
  t.same(d.reasons, [
    { kind: "failed", checks: ["H1"] },
    { kind: "not-observed", checks: ["B3"] },
  ]);
  t.same(d.summary, { total: 3, pass: 1, fail: 1, unobserved: 1, warn: 0, info: 0, skip: 0 });
});

t.test("a run that could not be made: exit 3, whatever the results, and the fact is the reason", async (t) => {
  const d = decide([r("H1", "pass")], { couldNotRun: "the provider could not be started: ENOENT" });
  t.same([d.outcome, d.exit_code, d.conformant], ["could-not-run", 3, false]);
  t.same(d.reasons, [{ kind: "could-not-run", why: "the provider could not be started: ENOENT" }]);
  const withBaseline = decide([r("H1", "fail")], { couldNotRun: "x" }, { strict: false, baseline: baseline("H1\n") });
  t.equal(withBaseline.outcome, "could-not-run", "a baseline does not make a run that could not be made green");
});

t.test("--strict: a SHOULD shortfall fails, and is the reason", async (t) => {
  const results = [r("H1", "pass"), r("F5", "warn", "SHOULD")];
  t.equal(decide(results, {}).outcome, "conformant");
  const d = decide(results, {}, { strict: true });
  t.same([d.outcome, d.exit_code], ["not-conformant", 1]);
  t.same(d.reasons, [{ kind: "failed", checks: ["F5"] }]);
  t.same(d.policy, { strict: true });
});

t.test("a baseline judges the verdict: the outcome follows it, the verdict stays the spec's", async (t) => {
  const green = decide([r("H1", "pass"), r("B3", "fail")], {}, { strict: false, baseline: baseline("B3\n") });
  t.same([green.conformant, green.outcome, green.exit_code], [false, "conformant", 0]);
  t.same(green.reasons, [{ kind: "expected", checks: ["B3"] }]);
  t.match(green.policy, { strict: false, baseline: { ok: true, expected_fail: ["B3"] } });

  const red = decide([r("H1", "fail"), r("B3", "fail")], {}, { strict: false, baseline: baseline("B3\n") });
  t.same([red.outcome, red.exit_code], ["not-conformant", 1]);
  t.same(red.reasons, [
    { kind: "unexpected", checks: ["H1"] },
    { kind: "expected", checks: ["B3"] },
  ]);

  const stale = decide([r("B3", "pass")], {}, { strict: false, baseline: baseline("B3\n") });
  t.same([stale.outcome, stale.reasons], ["not-conformant", [{ kind: "stale", checks: ["B3"], allowed: false }]]);
  const allowed = decide([r("B3", "pass")], {}, { strict: false, baseline: baseline("B3\n"), allowStale: true });
  t.same([allowed.outcome, allowed.reasons], ["conformant", [{ kind: "stale", checks: ["B3"], allowed: true }]]);
});
