import t from "tap";
import { judgeBaseline, parseBaseline, writeBaselineText, type Baseline } from "../../src/verdict/baseline.ts";
import { baselineRed, renderBaselineSummary } from "../../src/report/verdict-words.ts";
import { type CheckResult, type Status } from "../../src/verdict/status.ts";
import { CHECKS } from "../../checks/index.ts";
import { EXCLUDED } from "../../checks/excluded.ts";

const REGISTRY = { ids: CHECKS.map((c) => c.id), excluded: EXCLUDED };
const parse = (text: string) => parseBaseline(text, REGISTRY);

const ids = (b: Baseline): string[] => b.entries.map((e) => e.id);

t.test("JSON: a list of ids", async (t) => {
  const b = parse('{ "expect_fail": ["B3", "F5"] }\n');
  t.equal(b.format, "json");
  t.same(ids(b), ["B3", "F5"]);
  t.same(
    b.entries.map((e) => e.reason),
    [undefined, undefined],
  );
  t.same(parse('{"expect_fail": []}').entries, [], "an empty baseline is valid");
});

t.test("JSON: ids with reasons, and their lines", async (t) => {
  const b = parse(`{
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
  const b = parse("# known failures\r\n\r\nB3   # tokenizer fix in #42\n  F5\n\n# end\n");
  t.equal(b.format, "text");
  t.same(b.entries, [
    { id: "B3", line: 3, reason: "tokenizer fix in #42" },
    { id: "F5", line: 4 },
  ]);
  t.same(parse("").entries, [], "an empty file is an empty baseline");
  t.same(parse("# nothing yet\n").entries, []);
});

t.test("malformed input names the line (and column for JSON)", async (t) => {
  const cases: [string, RegExp][] = [
    ['{\n  "expect_fail": ["B3",]\n}', /line 2, column 24: invalid JSON: value expected, found "\]"$/],
    ['{\n  "expect_fail": ["B3"]', /line 2, column 24: invalid JSON: close brace expected, found end of input$/],
    ['{ "expect_fail": ["B3"] } x', /line 1, column 27: invalid JSON: invalid symbol, found "x"$/],
    ['{ "expect_fail": ["B3\n"] }', /line 1, column 22: invalid JSON: unexpected end of string, found "\\n"$/],
    ['["B3"]', /line 1, column 1: expected an object/],
    ["{}", /no "expect_fail" member/],
    ['{ "expect_fail": "B3" }', /line 1, column 18: expect_fail must be an array/],
    ['{ "expect_fail": ["B3", 5] }', /line 1, column 25: expect_fail\[1\] must be a check id string, got a number/],
    ['{ "expect_fail": { "B3": true } }', /expect_fail\.B3 must be a reason string, got a boolean/],
    ['{ "expect_fail": [], "expect_fails": [] }', /line 1, column 22: unknown member "expect_fails"/],
    ['{ "expect_fail": { "B3": "", "B3": "" } }', /line 1, column 30: invalid JSON: member "B3" appears twice$/],
    ["B3\nF5 F6\n", /^baseline line 2: one check id per line/],
  ];
  for (const [text, re] of cases) t.throws(() => parse(text), re, JSON.stringify(text));
});

t.test("strict JSON: comments, trailing commas, bad escapes and numbers, other quotes and whitespace are refused where they are", async (t) => {
  const cases: [string, RegExp][] = [
    ['{ "expect_fail": ["B3"] // known\n}', /line 1, column 25: invalid JSON: invalid comment token, found "\/"$/],
    ['{\n  /* known */ "expect_fail": ["B3"] }', /line 2, column 3: invalid JSON: invalid comment token, found "\/"$/],
    ['{ "expect_fail": ["B3"] } /* open', /line 1, column 27: invalid JSON: invalid comment token, found "\/"$/],
    ['{ "expect_fail": ["B3"], }', /line 1, column 26: invalid JSON: property name expected, found "}"$/],
    ['{ "expect_fail": [,"B3"] }', /line 1, column 19: invalid JSON: value expected, found ","$/],
    ['{ "expect_fail": ["\\x42\\x33"] }', /line 1, column 20: invalid JSON: invalid escape character, found "\\\\"$/],
    ['{ "expect_fail": ["B\\3"] }', /line 1, column 21: invalid JSON: invalid escape character, found "\\\\"$/],
    ['{ "expect_fail": ["\\u42"] }', /line 1, column 20: invalid JSON: invalid unicode, found "\\\\"$/],
    ['{ "expect_fail": ["B3\t"] }', /line 1, column 22: invalid JSON: invalid character, found "\\t"$/],
    ['{ "expect_fail": ["B3\u0001"] }', /line 1, column 22: invalid JSON: invalid character, found "\\u0001"$/],
    ['{ "expect_fail": ["B3', /line 1, column 22: invalid JSON: unexpected end of string, found end of input$/],
    ["{ 'expect_fail': ['B3'] }", /line 1, column 3: invalid JSON: invalid symbol, found "'"$/],
    ['{ expect_fail: ["B3"] }', /line 1, column 3: invalid JSON: invalid symbol, found "e"$/],
    ['{ "expect_fail": ["B3", 01] }', /line 1, column 26: invalid JSON: comma expected, found "1"$/],
    ['{ "expect_fail": ["B3", -01] }', /line 1, column 27: invalid JSON: comma expected, found "1"$/],
    ['{ "expect_fail": ["B3", +1] }', /line 1, column 25: invalid JSON: invalid symbol, found "\+"$/],
    ['{ "expect_fail": ["B3", .5] }', /line 1, column 25: invalid JSON: invalid symbol, found "\."$/],
    ['{ "expect_fail": ["B3", 1.] }', /line 1, column 25: invalid JSON: unexpected end of number, found "1"$/],
    ['{ "expect_fail": ["B3", 1e] }', /line 1, column 25: invalid JSON: unexpected end of number, found "1"$/],
    ['{ "expect_fail": ["B3", 0x1] }', /line 1, column 26: invalid JSON: invalid symbol, found "x"$/],
    ['{ "expect_fail": ["B3", NaN] }', /line 1, column 25: invalid JSON: invalid symbol, found "N"$/],
    ['{ "expect_fail": ["B3", -Infinity] }', /line 1, column 25: invalid JSON: invalid symbol, found "-"$/],
    ['{ "expect_fail": ["B3", undefined] }', /line 1, column 25: invalid JSON: invalid symbol, found "u"$/],
    ['{ "expect_fail": ["B3", True] }', /line 1, column 25: invalid JSON: invalid symbol, found "T"$/],
    ['{\u00a0"expect_fail": ["B3"] }', /line 1, column 2: invalid JSON: invalid symbol, found "\u00a0"$/],
    ['{\u000b"expect_fail": ["B3"] }', /line 1, column 2: invalid JSON: invalid symbol, found "\\u000b"$/],
    ['{\f"expect_fail": ["B3"] }', /line 1, column 2: invalid JSON: invalid symbol, found "\\f"$/],
    ['{ "expect_fail": ["B3"] }\n{}', /line 2, column 1: invalid JSON: end of file expected, found "{"$/],
    ['{ "expect_fail": ["B3"] }\u0000', /line 1, column 26: invalid JSON: invalid symbol, found "\\u0000"$/],
  ];
  for (const [text, re] of cases) {
    t.throws(() => JSON.parse(text), `not JSON: ${JSON.stringify(text)}`);
    t.throws(() => parse(text), re, JSON.stringify(text));
  }
});

t.test("strict JSON: a duplicate member is refused at its second key, though JSON.parse would keep the last", async (t) => {
  const cases: [string, RegExp][] = [
    ['{ "expect_fail": [], "expect_fail": ["B3"] }', /line 1, column 22: invalid JSON: member "expect_fail" appears twice$/],
    ['{ "expect_fail": [{ "x": 1, "x": 2 }] }', /line 1, column 29: invalid JSON: member "x" appears twice$/],
    ['{ "expect_fail": { "B3": "", "F5": "", "B3": "" } }', /line 1, column 40: invalid JSON: member "B3" appears twice$/],
  ];
  for (const [text, re] of cases) {
    t.doesNotThrow(() => JSON.parse(text), `JSON.parse lets it through: ${JSON.stringify(text)}`);
    t.throws(() => parse(text), re, JSON.stringify(text));
  }
  t.throws(
    () => parse('{ "expect_fail": { "B3": "", "B3": "" }, }'),
    /line 1, column 30: invalid JSON: member "B3" appears twice$/,
    "the first problem in the file is the one named",
  );
});

t.test("strict JSON: escapes, CRLF line ends and the other valid forms still read", async (t) => {
  const b = parse('{\r\n  "expect_fail": {\r\n    "\\u0042\\u0033": "see \\"fix\\" \\/ \\u00e9\\t",\r\n    "F5": "\u007f"\r\n  }\r\n}\r\n');
  t.same(b.entries, [
    { id: "B3", line: 3, reason: 'see "fix" / \u00e9' },
    { id: "F5", line: 4, reason: "\u007f" },
  ]);
  t.same(ids(parse(' \t\r\n{"expect_fail":["B3"]} \t\r\n')), ["B3"], "JSON whitespace around the value");
});

t.test("ids that are not registered checks are errors", async (t) => {
  t.throws(() => parse("B3\n\nZ9\n"), /^baseline line 3: "Z9" is not a registered check/);
  t.throws(() => parse("b3\n"), /did you mean B3\?/);
  t.throws(() => parse("B*\n"), /not globs/);
  t.throws(() => parse("C1\n"), /line 1: C1 is excluded.*can never fail.*host-side/);
  t.throws(() => parse('{\n  "expect_fail": [\n    "B3",\n    "Q9"\n  ]\n}'), /^baseline line 4, column 5: expect_fail\[1\]: "Q9" is not a registered check/);
  t.throws(() => parse('{ "expect_fail": { "A1": "host side" } }'), /expect_fail\.A1: A1 is excluded/);
  t.throws(() => parse("B3\nF5\nB3\n"), /line 3: B3 is listed twice \(first on line 1\)/);
  t.throws(() => parse('{"expect_fail": ["B3",\n "B3"]}'), /line 2, column 2: expect_fail\[1\]: B3 is listed twice/);
  t.same(ids(parseBaseline("X1\n", { ids: ["X1"], excluded: {} })), ["X1"], "the registry can be given");
});

const r = (id: string, status: Status): CheckResult => ({ id, title: id, level: "MUST", requirement: "", status, untestable: false, evidence: [] });
const baseline = parse("B3 # tokenizer fix in #42\nF5\n");

t.test("judge: failures exactly as baselined is green", async (t) => {
  const j = judgeBaseline([r("H1", "pass"), r("B3", "fail"), r("F5", "fail"), r("R1", "warn")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: [], not_failing: [], allow_stale: false, still_failing: ["B3", "F5"], skipped: [], not_run: [] });
  t.match(renderBaselineSummary(j, baseline), /baselined checks fail as expected: B3 \(tokenizer fix in #42\), F5$/);
  t.equal(baselineRed(j), undefined);
});

t.test("judge: a failure not in the baseline is red", async (t) => {
  const j = judgeBaseline([r("H1", "fail"), r("B3", "fail"), r("F5", "fail")], baseline);
  t.equal(j.ok, false);
  t.same(j.unexpected, ["H1"]);
  t.same(j.still_failing, ["B3", "F5"]);
  const text = renderBaselineSummary(j);
  t.match(text, /baseline: 1 failure is not in the baseline: H1/);
  t.equal(baselineRed(j), "1 failure not in the baseline (H1)");
});

t.test("judge: a baselined check that passes makes the baseline stale, and the run red unless stale entries are allowed", async (t) => {
  const j = judgeBaseline([r("B3", "pass"), r("F5", "fail")], baseline);
  t.same(j, { ok: false, unexpected: [], fixed: ["B3"], not_failing: [], allow_stale: false, still_failing: ["F5"], skipped: [], not_run: [] });
  const text = renderBaselineSummary(j, baseline);
  t.match(text, /1 baselined check no longer fails: B3 \(tokenizer fix in #42\); remove it from the baseline, or pass --allow-stale-baseline/);
  t.equal(baselineRed(j), "1 baselined check passes (B3): the baseline is stale");
  const allowed = judgeBaseline([r("B3", "pass"), r("F5", "fail")], baseline, true);
  t.equal(allowed.ok, true);
  t.equal(baselineRed(allowed), undefined);
  t.match(renderBaselineSummary(allowed, baseline), /--allow-stale-baseline: not a failure/);
});

t.test("judge: a baselined check that only warns, or whose bytes could not be checked here (info), is reported, not stale", async (t) => {
  const j = judgeBaseline([r("B3", "warn"), r("F5", "info")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: [], not_failing: ["B3", "F5"], allow_stale: false, still_failing: [], skipped: [], not_run: [] });
  t.equal(baselineRed(j), undefined);
  t.match(renderBaselineSummary(j, baseline), /2 baselined checks no longer fail but do not pass either \(warn or info\): B3/);
});

t.test("--write-baseline's text lists the failing checks, and reads back as a baseline of exactly them", async (t) => {
  const results = [r("H1", "pass"), r("B3", "fail"), r("F12", "fail"), r("R1", "warn")];
  const text = writeBaselineText(results, "a run");
  t.match(text, /^# cgp-conform baseline/);
  const back = parse(text);
  t.same(
    back.entries.map((e) => e.id),
    ["B3", "F12"],
  );
  t.equal(judgeBaseline(results, back).ok, true);
  // What the comment says of the run is one line, whatever the provider's command holds.
  const hostile = writeBaselineText(results, "a run against sh -c exit 1\nH2 # x\r\nF5");
  t.same(
    parse(hostile).entries.map((e) => e.id),
    ["B3", "F12"],
    "a command with line breaks cannot add an id",
  );
});

t.test("judge: a baselined check skipped, or not run at all, is reported", async (t) => {
  const j = judgeBaseline([r("B3", "skip"), r("H1", "info")], baseline);
  t.same(j, { ok: true, unexpected: [], fixed: [], not_failing: [], allow_stale: false, still_failing: [], skipped: ["B3"], not_run: ["F5"] });
  const text = renderBaselineSummary(j);
  t.match(text, /1 baselined check was skipped this run: B3/);
  t.match(text, /1 baselined check was not selected this run: F5/);
});
