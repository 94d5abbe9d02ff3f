import t from "tap";
import { FORMATS, isFormat, parseReportSpecs, render, type Format, type ReportSpec } from "../../src/report/formats.ts";
import { renderGithub } from "../../src/report/github.ts";
import { renderHtml } from "../../src/report/html/index.ts";
import { renderJunit } from "../../src/report/junit.ts";
import { renderMarkdown } from "../../src/report/markdown.ts";
import type { RunReport } from "../../src/verdict/report.ts";
import { renderTap } from "../../src/report/tap.ts";
import { check, ev, synthetic } from "../helpers/reports.ts";

t.test("the formats", async (t) => {
  t.same([...FORMATS], ["json", "junit", "tap", "markdown", "github", "html"]);
  for (const f of FORMATS) t.ok(isFormat(f));
  for (const f of ["human", "JSON", "xml", "", "junit:"]) t.notOk(isFormat(f), JSON.stringify(f));
});

t.test("FORMAT[:FILE] specs parse", async (t) => {
  const cases: Array<[string[], ReportSpec[]]> = [
    [[], []],
    [["json"], [{ format: "json" }]],
    [["junit:out.xml"], [{ format: "junit", file: "out.xml" }]],
    [["junit:C:\\out.xml"], [{ format: "junit", file: "C:\\out.xml" }]],
    [["markdown:a:b:c.md"], [{ format: "markdown", file: "a:b:c.md" }]],
    [["tap:/tmp/dir with space/r.tap"], [{ format: "tap", file: "/tmp/dir with space/r.tap" }]],
    [["github"], [{ format: "github" }]],
    [
      ["json:r.json", "junit:r.xml", "tap:r.tap", "markdown:r.md", "github"],
      [
        { format: "json", file: "r.json" },
        { format: "junit", file: "r.xml" },
        { format: "tap", file: "r.tap" },
        { format: "markdown", file: "r.md" },
        { format: "github" },
      ],
    ],
    [
      ["junit:a.xml", "junit:b.xml"],
      [
        { format: "junit", file: "a.xml" },
        { format: "junit", file: "b.xml" },
      ],
    ],
  ];
  for (const [specs, want] of cases) t.same(parseReportSpecs(specs), want, JSON.stringify(specs));
  const [spec] = parseReportSpecs(["json"]);
  t.notOk(spec && "file" in spec, "no file key when there is no file");
});

t.test("bad specs are refused with a message that says what to do", async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [["xml"], /unknown report format "xml": expected FORMAT\[:FILE\] with FORMAT one of json, junit, tap, markdown, github, html/],
    [["JUnit:out.xml"], /unknown report format "JUnit"/],
    [["human"], /unknown report format "human"/],
    [["C:\\out.xml"], /unknown report format "C"/],
    [[""], /an empty format in report spec "": expected FORMAT\[:FILE\]/],
    [[":out.xml"], /an empty format in report spec ":out\.xml"/],
    [["junit:"], /report spec "junit:" has an empty file name/],
    [["junit:  "], /has an empty file name/],
    [["junit:r.xml", "tap:r.xml"], /two reports would be written to the same file "r\.xml"/],
    [["json", "tap"], /only one report can go to standard output, but both json and tap would: give one a file, as tap:FILE/],
    [["json:r.json", "ok", "tap"], /unknown report format "ok"/],
  ];
  for (const [specs, message] of cases) t.throws(() => parseReportSpecs(specs), { constructor: Error, message }, JSON.stringify(specs));
});

/** One MUST check that failed, as every format renders it. */
const BROKE = check("A1", "fail", [ev("fail", "broke")], { title: "a", requirement: "r" });

t.test("render dispatches to each format's renderer", async (t) => {
  const report = synthetic([BROKE, { id: "A2", title: "b", level: "MUST", requirement: "r", status: "skip", reason: "n/a", untestable: false, evidence: [] }]);
  const want: Record<Format, string> = {
    json: JSON.stringify(report, null, 2) + "\n",
    junit: renderJunit(report),
    tap: renderTap(report),
    markdown: renderMarkdown(report),
    github: renderGithub(report),
    html: renderHtml(report),
  };
  for (const f of FORMATS) t.equal(render(f, report), want[f], f);
  t.same(JSON.parse(render("json", report)), report, "json round-trips");
  t.match(render("junit", report), /^<\?xml /);
  t.match(render("tap", report), /^TAP version 14\n/);
  t.match(render("markdown", report), /^## ❌ cgp-conform: NOT CONFORMANT\n/);
  t.match(render("github", report), /^::error title=A1%3A a::broke/);
  t.match(render("html", report), /^<!DOCTYPE html>\n/);
  for (const f of FORMATS) t.ok(render(f, report).endsWith("\n"), `${f} ends in a newline`);
});

t.test("every format names an http target by its URL", async (t) => {
  const report: RunReport = { ...synthetic([]), target: { kind: "http", url: "https://provider.example/cgp" } };
  for (const f of FORMATS) {
    if (f === "github") continue; // annotations name checks, not the target
    t.ok(render(f, report).includes("https://provider.example/cgp"), f);
  }
  t.match(render("junit", report), /<property name="target\.url" value="https:\/\/provider\.example\/cgp"\/>/);
});

t.test("every format but json states the gating policy the report records", async (t) => {
  const base = synthetic([BROKE]);
  const report: RunReport = {
    ...base,
    policy: {
      strict: true,
      only: ["A1", "A3"],
      baseline: {
        expected_fail: ["A1", "A3"],
        ok: true,
        unexpected: [],
        fixed: ["A3"],
        not_failing: [],
        allow_stale: true,
        still_failing: ["A1"],
        skipped: [],
        not_run: [],
      },
    },
  };
  for (const f of FORMATS) {
    if (f === "json") continue;
    const out = render(f, report);
    t.match(out, /--strict/, `${f}: strict`);
    t.match(out, /baseline of 2 expected failures met/, `${f}: the baseline's judgement`);
    t.match(out, /fixed, to take out of the baseline: A3/, `${f}: what the baseline should drop`);
    t.notOk(render(f, base).includes("baseline"), `${f}: nothing when there is no policy`);
  }
  t.match(render("markdown", report), /^## ❌ cgp-conform: NOT CONFORMANT$/m, "the verdict stays the report's");
});
