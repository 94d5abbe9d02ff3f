import t from "tap";
import type { CheckResult, Status } from "../checks/kit/check.ts";
import { judgeBaseline, parseBaseline, renderBaselineSummary, type Baseline } from "../src/baseline.ts";

const ids = (b: Baseline): string[] => b.entries.map((e) => e.id);

t.test("JSON: a list of ids", async (t) => {
  const b = parseBaseline('{ "expect_fail": ["B3", "F5"] }\n');
  t.equal(b.format, "json");
  t.same(ids(b), ["B3", "F5"]);
  t.same(b.entries.map((e) => e.reason), [undefined, undefined]);
  t.same(parseBaseline('{"expect_fail": []}').entries, [], "an empty baseline is valid");
});

t.test("JSON: ids with reasons, and their lines", async (t) => {
  const b = parseBaseline(`{
  "expect_fail": {
    "B3": "tokenizer fix in #42",
    "S2-framing": "  "
  }
}`);
  t.same(b.entries, [
    { id: "B3", line: 3, reason: "tokenizer fix in #42" },
    { id: "S2-framing", line: 4 },
  ]);
});

t.test("text: one id per line, comments and blanks ignored, a trailing comment is the reason", async (t) => {
  const b = parseBaseline("# known failures\r\n\r\nB3   # tokenizer fix in #42\n  F5\n\n# end\n");
  t.equal(b.format, "text");
  t.same(b.entries, [
    { id: "B3", line: 3, reason: "tokenizer fix in #42" },
    { id: "F5", line: 4 },
  ]);
  t.same(parseBaseline("").entries, [], "an empty file is an empty baseline");
  t.same(parseBaseline("# nothing yet\n").entries, []);
});

t.test("malformed input names the line (and column for JSON)", async (t) => {
  const cases: [string, RegExp][] = [
    ['{\n  "expect_fail": ["B3",]\n}', /line 2, column 24: invalid JSON: unexpected "\]", expected a JSON value/],
    ['{\n  "expect_fail": ["B3"]', /line 2, column 24: invalid JSON: unexpected end of input/],
    ['{ "expect_fail": ["B3"] } x', /line 1, column 27: invalid JSON/],
    ['{ "expect_fail": ["B3\n"] }', /line 1, column 22: invalid JSON: a control character/],
    ['["B3"]', /line 1, column 1: expected an object/],
    ["{}", /no "expect_fail" member/],
    ['{ "expect_fail": "B3" }', /line 1, column 18: expect_fail must be an array/],
    ['{ "expect_fail": ["B3", 5] }', /line 1, column 25: expect_fail\[1\] must be a check id string, got a number/],
    ['{ "expect_fail": { "B3": true } }', /expect_fail\.B3 must be a reason string, got a boolean/],
    ['{ "expect_fail": [], "expect_fails": [] }', /line 1, column 22: unknown member "expect_fails"/],
    ['{ "expect_fail": { "B3": "", "B3": "" } }', /member "B3" appears twice/],
    ["B3\nF5 F6\n", /^baseline line 2: one check id per line/],
  ];
  for (const [text, re] of cases) t.throws(() => parseBaseline(text), re, JSON.stringify(text));
});

t.test("ids that are not registered checks are errors", async (t) => {
  t.throws(() => parseBaseline("B3\n\nZ9\n"), /^baseline line 3: "Z9" is not a registered check/);
  t.throws(() => parseBaseline("b3\n"), /did you mean B3\?/);
  t.throws(() => parseBaseline("B*\n"), /not globs/);
  t.throws(() => parseBaseline("C1\n"), /line 1: C1 is excluded.*can never fail.*host-side/);
  t.throws(() => parseBaseline('{\n  "expect_fail": [\n    "B3",\n    "Q9"\n  ]\n}'), /^baseline line 4, column 5: expect_fail\[1\]: "Q9" is not a registered check/);
  t.throws(() => parseBaseline('{ "expect_fail": { "UR1": "host side" } }'), /expect_fail\.UR1: UR1 is excluded/);
  t.throws(() => parseBaseline("B3\nF5\nB3\n"), /line 3: B3 is listed twice \(first on line 1\)/);
  t.throws(() => parseBaseline('{"expect_fail": ["B3",\n "B3"]}'), /line 2, column 2: expect_fail\[1\]: B3 is listed twice/);
  t.same(ids(parseBaseline("X1\n", ["X1"])), ["X1"], "the registry can be given");
});

const r = (id: string, status: Status): CheckResult => ({ id, title: id, level: "MUST", status, untestable: false, evidence: [] });
const baseline = parseBaseline("B3 # tokenizer fix in #42\nF5\n");

t.test("judge: failures exactly as baselined is green", async (t) => {
  const j = judgeBaseline([r("H1", "pass"), r("B3", "fail"), r("F5", "fail"), r("R1", "warn")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: [], stillFailing: ["B3", "F5"], skipped: [], notRun: [] });
  t.match(renderBaselineSummary(j, baseline), /B3 \(tokenizer fix in #42\), F5[\s\S]*baseline: green \(every failure is baselined\)$/);
});

t.test("judge: a failure not in the baseline is red", async (t) => {
  const j = judgeBaseline([r("H1", "fail"), r("B3", "fail"), r("F5", "fail")], baseline);
  t.equal(j.ok, false);
  t.same(j.unexpected, ["H1"]);
  t.same(j.stillFailing, ["B3", "F5"]);
  const text = renderBaselineSummary(j);
  t.match(text, /baseline: 1 failure is not in the baseline: H1/);
  t.match(text, /baseline: red \(1 unexpected failure\)$/);
});

t.test("judge: a baselined check that no longer fails is reported as fixed, and stays green", async (t) => {
  const j = judgeBaseline([r("B3", "pass"), r("F5", "warn")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: ["B3", "F5"], stillFailing: [], skipped: [], notRun: [] });
  const text = renderBaselineSummary(j, baseline);
  t.match(text, /2 baselined checks no longer fail: B3 \(tokenizer fix in #42\), F5; remove them from the baseline/);
  t.match(text, /baseline: green \(no failures\)$/);
});

t.test("judge: a baselined check skipped, or not run at all, is reported", async (t) => {
  const j = judgeBaseline([r("B3", "skip"), r("H1", "info")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: [], stillFailing: [], skipped: ["B3"], notRun: ["F5"] });
  const text = renderBaselineSummary(j);
  t.match(text, /1 baselined check was skipped this run: B3/);
  t.match(text, /1 baselined check was not selected this run: F5/);
});
