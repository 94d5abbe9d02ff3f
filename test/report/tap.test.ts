import t from "tap";
import { Parser, type FinalResults, type Result } from "tap-parser";
import type { RunReport } from "../../src/verdict/report.ts";
import { renderTap } from "../../src/report/tap.ts";
import { check, ev, real, realRuns, RUNS, synthetic } from "../helpers/reports.ts";

/** YAML's traps: indicators, a document end, a comment, quotes, line breaks, controls, NEL, LS, BOM, and text that looks like other types. */
const HOSTILE = [
  "- not a list",
  "key: value # not a comment",
  "...",
  "---",
  `"double" 'single' \\backslash`,
  "line one\nline two\r\nline three",
  "nul \u0000 esc \u001b del \u007f nel \u0085 c1 \u009b ls \u2028 ps \u2029 bom \uFEFF lone \uD800 surrogate",
  "{ flow: map } [flow, seq] &anchor *alias !tag | > @ `",
  "true",
  "null",
  "0x10",
  "not ok 1 - a fake failure",
  "# a fake comment",
  "Bail out! fake",
].join("\n");

const hostile = synthetic([
  check("X1", "fail", [ev("fail", HOSTILE, { expected: HOSTILE, actual: "", lines: [3, 4] }), ev("pass", "ok part")], { title: "a # hash \\ back\nslash" }),
  check("X2", "warn", [ev("warn", HOSTILE, { level: "SHOULD" })]),
  check("X3", "skip", [], { reason: "skipped because\nof # this" }),
  check("X4", "info", [ev("info", "a MAY note", { level: "MAY" })]),
  check("X5", "pass", [ev("pass", "fine")]),
  check("X6", "fail", [ev("fail", "untestable", { untestable: true })], { untestable: true }),
]);

interface Parsed {
  asserts: Result[];
  complete: FinalResults;
  extra: unknown[];
  bailout: boolean;
  version: unknown;
  plan: { start: number; end: number } | undefined;
}

function parse(tap: string): Parsed {
  const log = Parser.parse(tap);
  const of = (name: string) => log.filter((e) => e[0] === name).map((e) => e[1] as unknown);
  return {
    asserts: of("assert") as Result[],
    complete: of("complete")[0] as FinalResults,
    extra: of("extra"),
    bailout: of("bailout").length > 0,
    version: of("version")[0],
    plan: of("plan")[0] as Parsed["plan"],
  };
}

async function cases(): Promise<Array<[string, RunReport]>> {
  const { ok, b3, dead } = await realRuns();
  return [
    ["the conformant reference provider", ok],
    ["B3-utf16-length", b3],
    ["a provider that cannot start", dead],
    ["hostile evidence", hostile],
    ["every check skipped", synthetic([check("A1", "skip", [], { reason: "no A" }), check("A2", "skip", [], { reason: "no B" })])],
  ];
}

t.test("TAP 14 a parser reads as the report says", async (t) => {
  for (const [name, report] of await cases()) {
    t.test(name, async (t) => {
      const tap = renderTap(report);
      t.match(tap, /^TAP version 14\n1\.\.\d+\n/);
      const p = parse(tap);
      t.equal(p.version, 14);
      t.same(p.plan && [p.plan.start, p.plan.end], [1, report.results.length], "plan 1..N");
      t.same(p.extra, [], "no line the parser does not understand");
      t.notOk(p.bailout);
      t.equal(p.asserts.length, report.results.length, "a test point per check");
      const s = report.summary;
      t.equal(p.complete.count, s.total);
      // A check not observed is not a pass either: TAP has no third outcome, so it is a "not ok" that says so.
      t.equal(p.complete.fail, s.fail + s.unobserved, "not ok exactly for the fails and the checks not observed");
      t.equal(p.complete.skip, s.skip);
      t.equal(p.complete.pass, s.total - s.fail - s.unobserved);
      t.equal(p.complete.ok, s.fail + s.unobserved === 0);
      report.results.forEach((r, i) => {
        const a = p.asserts[i]!;
        t.equal(a.id, i + 1);
        t.equal(a.ok, r.status !== "fail" && r.status !== "unobserved", `${r.id}: ok iff neither fail nor not observed`);
        if (r.status === "unobserved") t.match(a.name, /\(not observed\)$/, `${r.id}: says it was not observed`);
        t.ok(a.name.startsWith(`${r.id}: `), `${r.id}: named by its id`);
        if (r.status === "skip") t.equal(a.skip, r.reason!.replace(/\n/g, " "), `${r.id}: # SKIP reason`);
        else t.equal(a.skip, false);
        if (r.status === "pass" || r.status === "skip") t.equal(a.diag, null, `${r.id}: no diagnostics`);
        else {
          t.equal(a.diag?.status, r.status, `${r.id}: diagnostics`);
          t.equal(a.diag?.id, r.id);
          t.equal(a.diag?.level, r.level);
          t.same(
            a.diag?.evidence,
            r.evidence
              .filter((e) => e.status !== "pass")
              .map((e) => ({
                status: e.status,
                message: e.message,
                ...(e.level !== undefined ? { level: e.level } : {}),
                ...(e.untestable ? { untestable: true } : {}),
                ...(e.expected !== undefined ? { expected: e.expected } : {}),
                ...(e.actual !== undefined ? { actual: e.actual } : {}),
                lines: e.lines,
              })),
            `${r.id}: the findings round-trip through YAML`,
          );
        }
      });
    });
  }
});

t.test("hostile text round-trips and cannot forge TAP", async (t) => {
  const tap = renderTap(hostile);
  const p = parse(tap);
  t.equal(p.asserts.length, 6);
  const [x1, x2, x3] = p.asserts;
  t.equal(x1!.name, "X1: a # hash \\ back slash", "# and \\ escaped in the description, its line break flattened");
  t.equal(x1!.diag.evidence[0].message, HOSTILE);
  t.equal(x1!.diag.evidence[0].expected, HOSTILE);
  t.equal(x1!.diag.evidence[0].actual, "");
  t.same(x1!.diag.evidence[0].lines, [3, 4]);
  t.equal(x1!.diag.evidence.length, 1, "passing findings are left out");
  t.equal(x1!.diag.requirement, "requirement of X1", "the requirement is the one the result carries");
  t.equal(x2!.diag.evidence[0].level, "SHOULD");
  t.equal(x3!.skip, "skipped because of # this");
  for (const line of tap.split("\n")) {
    t.notMatch(line, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uFEFF]/, "no raw control or separator character");
  }
  t.notMatch(tap, /^not ok 1 - a fake/m);
  t.notMatch(tap, /^Bail out!/m);
});

t.test("a warn is ok, its diagnostics open with a # warn comment", async (t) => {
  const tap = renderTap(hostile);
  t.match(tap, /^ok 2 - X2: title of X2\n {2}---\n {2}# warn\n/m);
  t.match(tap, /^ok 4 - X4: title of X4\n {2}---\n {2}# info\n/m);
  t.match(tap, /^ok 3 - X3: title of X3 # SKIP skipped because of # this$/m);
  t.match(tap, /^not ok 6 - X6: title of X6\n {2}---\n/m);
});

t.test("a real failure's diagnostics carry the requirement", async (t) => {
  const report = await real([...RUNS.b3]);
  const b3 = parse(renderTap(report)).asserts.find((a) => a.name.startsWith("B3: "))!;
  t.equal(b3.ok, false);
  t.equal(b3.diag.requirement, "token_cost MUST equal ceil(utf8_byte_length(content) / 4).");
  t.match(b3.diag.evidence[0], { expected: "50", actual: "18", lines: [5] });
});

t.test("the closing comments give the tallies and the verdict", async (t) => {
  t.match(renderTap(await real([...RUNS.ok])), /\n# \d+ checks: \d+ pass, 0 fail, .*\n# CONFORMANT\n$/);
  t.match(renderTap(await real([...RUNS.dead])), /\n# COULD NOT RUN: the provider could not be started[^\n]*\n$/);
  t.match(renderTap(synthetic([])), /^TAP version 14\n1\.\.0\n/, "an empty run plans nothing");
});
