import t from "tap";
import { MARKDOWN_MAX_BYTES, renderMarkdown } from "../../src/report/markdown.ts";
import type { RunReport } from "../../src/verdict/report.ts";
import { check, ev, real, realRuns, RUNS, synthetic } from "../helpers/reports.ts";
import { type CheckResult, type Status } from "../../src/verdict/status.ts";

const bytes = (s: string): number => Buffer.byteLength(s, "utf8");

/** The cells of a table row, splitting on pipes that are not backslash-escaped. */
function cells(row: string): string[] {
  const out: string[] = [];
  let cell = "";
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === "\\") {
      cell += ch + (row[i + 1] ?? "");
      i++;
    } else if (ch === "|") {
      out.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  out.push(cell.trim());
  return out.slice(1, -1);
}

/** What a reader sees of an escaped cell: backslash escapes, the three entities, and <br> undone. */
function unescape(cell: string): string {
  return cell.replace(/<br>/g, "\n").replace(/\\(.)/g, "$1").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The rows of every check table in order: the one needing a reader, then the folded one. */
function tableRows(md: string): string[][] {
  const lines = md.split("\n");
  const rows: string[][] = [];
  lines.forEach((l, head) => {
    if (l !== "| Status | Check | Title | Evidence |") return;
    for (const line of lines.slice(head + 2)) {
      if (!line.startsWith("|")) break;
      rows.push(cells(line));
    }
  });
  return rows;
}

const WORD: Record<Status, RegExp> = {
  pass: /^✅ pass$/,
  fail: /^❌ fail$/,
  unobserved: /^❔ not observed$/,
  warn: /^⚠️ warn$/,
  info: /^ℹ️ info$/,
  skip: /^⏭️ skip$/,
};

const hostile = synthetic([
  check(
    "X1",
    "fail",
    [
      ev("fail", "a | pipe <script>alert(1)</script> & @someone #123 `code` *bold* [link](http://x)\nsecond line", {
        expected: "<b>",
        actual: "a\r\nb",
        lines: [3, 4],
      }),
    ],
    { title: "title | with\nnewline <img src=x>" },
  ),
  check("X2", "warn", [ev("warn", "warned <here>", { level: "SHOULD" })]),
  check("X3", "skip", [], { reason: "skipped | because\nof <this>" }),
  check("X4", "info", [ev("info", "a MAY note", { level: "MAY" })]),
  check("X5", "pass", [ev("pass", "fine")]),
]);

t.test("the summary has a headline, a table row per check and details per non-pass", async (t) => {
  const { ok, b3, dead } = await realRuns();
  const cases: Array<[string, RunReport, string]> = [
    ["the conformant reference provider", ok, "CONFORMANT"],
    ["B3-utf16-length", b3, "NOT CONFORMANT"],
    ["a provider that cannot start", dead, "COULD NOT RUN"],
    ["hostile evidence", hostile, "NOT CONFORMANT"],
    ["every check skipped", synthetic([check("A1", "skip", [], { reason: "no A" })]), "CONFORMANT"],
  ];
  for (const [name, report, verdict] of cases) {
    t.test(name, async (t) => {
      const md = renderMarkdown(report);
      const lines = md.split("\n");
      t.match(lines[0], new RegExp(`^## \\S+ cgp-conform: ${verdict}$`), "headline with the verdict");
      const s = report.summary;
      t.ok(
        md.includes(
          `**${s.total === 1 ? "1 check" : `${s.total} checks`}:** ${s.pass} pass · ${s.fail} fail${s.unobserved > 0 ? ` · ${s.unobserved} not observed` : ""} · ${s.warn} warn · ${s.info} info · ${s.skip} skip`,
        ),
        "tallies",
      );
      t.ok(bytes(md) <= MARKDOWN_MAX_BYTES);
      t.notMatch(md, /Output truncated/, "a run this size fits whole");

      const rows = tableRows(md);
      t.equal(rows.length, report.results.length, "a row per check");
      // Failures, warnings and notes first, in report order; then, folded, the passes and skips.
      const needsReader = (r: CheckResult) =>
        r.status === "fail" || r.status === "warn" || r.status === "info" || (r.status === "unobserved" && !report.could_not_run);
      const ordered = [...report.results.filter(needsReader), ...report.results.filter((r) => !needsReader(r))];
      const quiet = report.results.filter((r) => !needsReader(r)).length;
      if (quiet > 0)
        t.match(
          md,
          /\n<details><summary>(✅ \d+ passed)?( · )?(⏭️ \d+ skipped)?( · )?(❔ \d+ not observed)?<\/summary>\n\n\| Status/,
          "the passes and skips are folded",
        );
      else t.notMatch(md, /<details>/);
      ordered.forEach((r, i) => {
        const row = rows[i]!;
        t.equal(row.length, 4, `${r.id}: four cells`);
        t.match(row[0], WORD[r.status], `${r.id}: status`);
        const detailed = needsReader(r);
        t.equal(row[1], detailed ? `[${r.id}](#cgp-${r.id})` : r.id, `${r.id}: its anchor, linked to its details`);
        t.equal(unescape(row[2]!), r.title, `${r.id}: its title, escaped and no more`);
        if (r.status === "pass") t.equal(row[3], "", `${r.id}: no evidence for a pass`);
        else t.not(row[3], "", `${r.id}: first evidence line`);
      });

      const detailed = report.results.filter((r) => r.status === "fail" || r.status === "warn" || r.status === "info");
      const headings = lines.filter((l) => l.startsWith("#### "));
      t.equal(headings.length, detailed.length, "a details section per fail, warn and info");
      for (const r of detailed) {
        t.ok(md.includes(`<a id="cgp-${r.id}"></a>`), `${r.id}: details anchor`);
        t.ok(md.includes(`](#cgp-${r.id})`), `${r.id}: linked from the table`);
      }
      if (detailed.length === 0) t.notOk(md.includes("### Details"));
    });
  }
});

t.test("a could-not-run summary says why", async (t) => {
  const md = renderMarkdown(await real([...RUNS.dead]));
  t.match(md, /\*\*Could not run:\*\* the provider could not be started/);
});

t.test("a real failure's details quote the requirement and show expected and actual", async (t) => {
  const md = renderMarkdown(await real([...RUNS.b3]));
  t.match(md, /^> token\\_cost MUST equal ceil\(utf8\\_byte\\_length\(content\) \/ 4\)\.$/m);
  t.match(md, /^ {2}- expected: 50$/m);
  t.match(md, /^ {2}- actual: 18$/m);
  t.match(md, /^ {2}- transcript lines: 5(, \d+)*$/m);
});

t.test("provider text cannot break the table or inject markup", async (t) => {
  const md = renderMarkdown(hostile);
  const rows = tableRows(md);
  t.equal(rows.length, 5);
  for (const row of rows) t.equal(row.length, 4, "pipes and newlines in cells are escaped");
  t.equal(rows[0]![2], "title \\| with<br>newline &lt;img src=x&gt;");
  t.equal(rows.find((r) => r[1] === "X3")![3], "skipped \\| because<br>of &lt;this&gt;");
  t.equal(unescape(rows[0]![3]!), "a | pipe <script>alert(1)</script> & @someone #123 `code` *bold* [link](http://x)", "the first line of the first finding");
  t.match(md, /^- \*\*fail\*\*: a \\\| pipe &lt;script&gt;.*<br>second line$/m, "the whole message in the details");
  // The only raw markup is what the renderer writes itself: <br> and the anchors.
  const tags = md.match(/<[^>]*>/g) ?? [];
  t.same(
    [...new Set(tags)].sort(),
    ["<br>", ...["X1", "X2", "X4"].map((id) => `<a id="cgp-${id}">`), "</a>", "<details>", "<summary>", "</summary>", "</details>"].sort(),
  );
  t.notMatch(md, /(^|[^\\])@someone/, "no mention");
  t.notMatch(md, /(^|[^\\])#123/, "no issue reference");
  t.match(md, /- expected: &lt;b&gt;$/m);
  t.match(md, /- actual: a<br>b$/m);
});

t.test("the size cap holds, and the output says what it cut", async (t) => {
  const long = (n: number, seed: string): string => `${seed} ${"<&|x".repeat(n)}`;
  const manyFindings = (id: string, n: number): CheckResult =>
    check(
      id,
      "fail",
      Array.from({ length: n }, (_, i) =>
        ev("fail", long(400, `finding ${i}`), { expected: long(600, "e"), actual: long(600, "a"), lines: Array.from({ length: 50 }, (_, j) => j + 2) }),
      ),
    );
  const cases: Array<[string, RunReport, RegExp]> = [
    ["one check with thousands of findings", synthetic([manyFindings("BIG", 5000)]), /some findings of BIG/],
    ["many checks with many findings", synthetic(Array.from({ length: 40 }, (_, i) => manyFindings(`C${i}`, 200))), /the details of \d+ of 40 checks/],
    [
      "thousands of checks",
      synthetic(
        Array.from({ length: 5000 }, (_, i) => check(`T${i}`, "warn", [ev("warn", long(100, `w${i}`), { level: "SHOULD" })], { title: long(100, "title") })),
      ),
      /\d+ of 5000 rows of checks that did not pass/,
    ],
  ];
  for (const [name, report, said] of cases) {
    t.test(name, async (t) => {
      const md = renderMarkdown(report);
      t.ok(bytes(md) <= MARKDOWN_MAX_BYTES, `${bytes(md)} bytes <= ${MARKDOWN_MAX_BYTES}`);
      t.ok(bytes(md) > MARKDOWN_MAX_BYTES / 2, "the room is used");
      t.match(md, /> Output truncated to stay under 60 KiB: /, "says it was cut");
      t.match(md, said);
      t.match(md, /^## ❌ cgp-conform: NOT CONFORMANT$|^## ✅ cgp-conform: CONFORMANT$/m, "the headline survives");
      for (const row of tableRows(md)) t.equal(row.length, 4);
    });
  }
});

t.test("long evidence within the cap is cut per field and per check, and says so", async (t) => {
  const findings = Array.from({ length: 25 }, (_, i) => ev("fail", `finding ${i} ${"y".repeat(50)}`));
  const md = renderMarkdown(synthetic([check("F1", "fail", [ev("fail", "z".repeat(5000)), ...findings])]));
  t.match(md, /z{1000}… \(4000 more characters cut\)/);
  t.match(md, /- … and 16 more findings not shown here \(the JSON report has them all\)/);
  t.notMatch(md, /Output truncated/);
  t.match(tableRows(md)[0]![3], /z{200}… \(4800 more characters cut\) \(\+25 more\)$/);
});

t.test("many passes never cost the failures' details, and the fold is always closed", async (t) => {
  const passes = Array.from({ length: 3000 }, (_, i) => check(`P${i}`, "pass", [ev("pass", "fine")], { title: "x".repeat(60) }));
  const md = renderMarkdown(synthetic([check("F1", "fail", [ev("fail", "the one defect")]), ...passes]));
  t.ok(bytes(md) <= MARKDOWN_MAX_BYTES);
  t.match(md, /### Details[\s\S]*the one defect/, "the failure's details are there");
  t.match(md, /rows of passing and skipped checks/, "and the cut says what it dropped");
  t.equal((md.match(/<details>/g) ?? []).length, (md.match(/<\/details>/g) ?? []).length, "every fold is closed");
  t.ok(md.indexOf("### Details") < md.indexOf("<details>"), "details come before the fold");
});
