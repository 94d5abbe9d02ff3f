import t from "tap";
import { escapeData, escapeProperty, GITHUB_MAX_ANNOTATIONS, renderGithub } from "../../src/report/github.ts";
import type { RunReport } from "../../src/verdict/report.ts";
import { check, ev, real, realRuns, RUNS, synthetic } from "../helpers/reports.ts";

interface Command {
  kind: string;
  props: Record<string, string>;
  message: string;
}

/** The runner's side: undo the escapes. %25 last, so an escaped "%0A" stays literal. */
const unescape = (s: string): string => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");

/** Parse workflow commands as the runner does: `::kind k=v,k=v::message`, one per line. */
function commands(out: string): Command[] {
  if (!out.endsWith("\n")) throw new Error("output does not end in a newline");
  return out
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
      if (!m) throw new Error(`not a workflow command: ${line}`);
      const props = Object.fromEntries(
        (m[2] ?? "")
          .split(",")
          .filter(Boolean)
          .map((kv) => {
            const i = kv.indexOf("=");
            return [kv.slice(0, i), unescape(kv.slice(i + 1))];
          }),
      );
      return { kind: m[1]!, props, message: unescape(m[3]!) };
    });
}

const of = (cmds: Command[], kind: string) => cmds.filter((c) => c.kind === kind);

t.test("at most ten errors and ten warnings, then one notice for the rest", async (t) => {
  const { ok, b3, dead } = await realRuns();
  const many = synthetic([
    ...Array.from({ length: 25 }, (_, i) => check(`F${i}`, "fail", [ev("fail", `failure ${i}`)])),
    ...Array.from({ length: 15 }, (_, i) => check(`W${i}`, "warn", [ev("warn", `warning ${i}`, { level: "SHOULD" })])),
    check("I1", "info", [ev("info", "a note", { level: "MAY" })]),
    check("S1", "skip", [], { reason: "n/a" }),
  ]);
  const cases: Array<{ name: string; report: RunReport; errors: string[]; warnings: string[]; notice: RegExp }> = [
    { name: "the conformant reference provider", report: ok, errors: [], warnings: [], notice: /^\d+ checks: \d+ pass, 0 fail, 0 warn, 0 info, \d+ skip$/ },
    {
      name: "B3-utf16-length",
      report: b3,
      errors: ["B3: Each frame's token_cost equals ceil(UTF-8 bytes / 4)"],
      warnings: [],
      notice: /^\d+ checks: \d+ pass, 1 fail/,
    },
    {
      name: "a provider that cannot start: one error says so, and no check is annotated (none was observed)",
      report: dead,
      errors: ["cgp-conform: COULD NOT RUN"],
      warnings: [],
      notice: new RegExp(`^${dead.results.length} checks: 0 pass, 0 fail, ${dead.results.length} not observed, 0 warn, 0 info, 0 skip$`),
    },
    {
      name: "checks not observed beside a failure: one error for them all, with the first one's cause",
      report: synthetic([
        check("R1", "fail", [ev("fail", "the provider exited (code 1) on a query")]),
        check(
          "Q1",
          "unobserved",
          [ev("unobserved", 'query for kinds ["symbol"] (line 36) got no answer: the provider exited (code 1)', { untestable: true })],
          {
            untestable: true,
          },
        ),
        check("D1", "unobserved", [ev("unobserved", "query sent at line 36 got no frames or error reply", { untestable: true })], { untestable: true }),
      ]),
      errors: ["cgp-conform: 2 checks not observed", "R1: title of R1"],
      warnings: [],
      notice: /^3 checks: 0 pass, 1 fail, 2 not observed, 0 warn, 0 info, 0 skip$/,
    },
    {
      name: "25 fails and 15 warns",
      report: many,
      errors: Array.from({ length: 10 }, (_, i) => `F${i}: title of F${i}`),
      warnings: Array.from({ length: 10 }, (_, i) => `W${i}: title of W${i}`),
      notice:
        /^42 checks: 0 pass, 25 fail, 15 warn, 1 info, 1 skip\nNot annotated .*: 15 more failing checks: F10, F11, .*F24; 5 more warning checks: W10, W11, W12, W13, W14$/,
    },
    {
      name: "every check skipped",
      report: synthetic([check("S1", "skip", [], { reason: "n/a" })]),
      errors: [],
      warnings: [],
      notice: /^1 check: 0 pass, 0 fail, 0 warn, 0 info, 1 skip$/,
    },
  ];
  for (const c of cases) {
    t.test(c.name, async (t) => {
      const cmds = commands(renderGithub(c.report));
      const errors = of(cmds, "error");
      const warnings = of(cmds, "warning");
      const notices = of(cmds, "notice");
      t.ok(errors.length <= GITHUB_MAX_ANNOTATIONS && warnings.length <= GITHUB_MAX_ANNOTATIONS);
      t.same(
        errors.map((e) => e.props.title),
        c.errors,
        "errors, in report order",
      );
      t.same(
        warnings.map((e) => e.props.title),
        c.warnings,
        "warnings, in report order",
      );
      t.equal(notices.length, 1, "one notice");
      t.equal(cmds.length, errors.length + warnings.length + 1, "nothing else");
      const verdict = c.report.could_not_run ? "COULD NOT RUN" : c.report.conformant ? "CONFORMANT" : "NOT CONFORMANT";
      t.equal(notices[0]!.props.title, `cgp-conform: ${verdict}`);
      t.match(notices[0]!.message, c.notice);
    });
  }
});

t.test("an annotation carries the first finding, its expected/actual/lines, and how many more", async (t) => {
  const b3 = await real([...RUNS.b3]);
  const [error] = of(commands(renderGithub(b3)), "error");
  const fails = b3.results.find((r) => r.id === "B3")!.evidence.filter((e) => e.status === "fail");
  t.equal(
    error!.message,
    `${fails[0]!.message}\nexpected: 50\nactual: 18\ntranscript lines: ${fails[0]!.lines.join(", ")}${fails.length > 1 ? `\n… and ${fails.length - 1} more failing findings` : ""}`,
  );

  const warn = synthetic([check("W1", "warn", [ev("pass", "fine"), ev("warn", "a SHOULD broke", { level: "SHOULD", lines: [] })])]);
  t.equal(of(commands(renderGithub(warn)), "warning")[0]!.message, "[SHOULD] a SHOULD broke");
});

t.test("escaping follows the workflow-command rules", async (t) => {
  const data: Array<[string, string]> = [
    ["plain", "plain"],
    ["100%", "100%25"],
    ["%0A literal", "%250A literal"],
    ["a\nb", "a%0Ab"],
    ["a\r\nb", "a%0D%0Ab"],
    ["a:b,c", "a:b,c"],
    ["::warning::forged", "::warning::forged"],
    ["nul \u0000 esc \u001b", "nul \\u0000 esc \\u001b"],
  ];
  for (const [input, want] of data) t.equal(escapeData(input), want, `data ${JSON.stringify(input)}`);
  const props: Array<[string, string]> = [
    ["B3: title", "B3%3A title"],
    ["a,b", "a%2Cb"],
    ["50%: a\nb", "50%25%3A a%0Ab"],
    ["x=y", "x=y"],
  ];
  for (const [input, want] of props) t.equal(escapeProperty(input), want, `property ${JSON.stringify(input)}`);
});

t.test("provider text cannot forge a command or a property", async (t) => {
  const report = synthetic([
    check("X1", "fail", [ev("fail", "line one\n::warning title=forged::forged\r\n%0A::add-mask::secret", { expected: "a,b:c", actual: "100%" })], {
      title: "with: colon, comma\nand newline %",
    }),
    check("X2", "warn", [ev("warn", "::stop-commands::token\n::error::again", { level: "SHOULD" })], { title: "title=forged,file=x" }),
  ]);
  const out = renderGithub(report);
  t.equal(out.split("\n").length, 4, "three commands, one per line");
  for (const line of out.split("\n").filter(Boolean)) t.match(line, /^::(error|warning|notice) title=[^:,]*::/, "each line is one of ours");
  const cmds = commands(out);
  t.same(cmds[0], {
    kind: "error",
    props: { title: "X1: with: colon, comma\nand newline %" },
    message: "line one\n::warning title=forged::forged\r\n%0A::add-mask::secret\nexpected: a,b:c\nactual: 100%\ntranscript lines: 2",
  });
  t.same(cmds[1]!.props, { title: "X2: title=forged,file=x" }, "no forged property");
  t.equal(cmds[1]!.message, "[SHOULD] ::stop-commands::token\n::error::again\ntranscript lines: 2");
});

t.test("a huge message is cut and says so", async (t) => {
  const report = synthetic([check("H1", "fail", [ev("fail", "x".repeat(100_000))])]);
  const [error] = of(commands(renderGithub(report)), "error");
  t.ok(error!.message.length < 5000);
  t.match(error!.message, /… \(cut; the JSON report has it all\)$/);
});

t.test("a failure the baseline expects is a notice, never an error, and the closing notice names it", async (t) => {
  const results = [check("B3", "fail", [ev("fail", "token_cost off by one")]), check("F5", "fail", [ev("fail", "digest mismatch")])];
  const baseline = {
    ok: false,
    unexpected: ["F5"],
    fixed: [],
    not_failing: [],
    allow_stale: false,
    still_failing: ["B3"],
    skipped: [],
    not_run: [],
    expected_fail: ["B3"],
  };
  const cmds = commands(renderGithub(synthetic(results, { policy: { strict: false, baseline } })));
  t.same(
    of(cmds, "error").map((c) => c.props.title),
    [`F5: ${results[1]!.title}`],
    "only the unexpected failure is an error",
  );
  const notices = of(cmds, "notice");
  t.equal(notices.length, 2);
  t.match(notices[0]!.props.title, /^B3: .* \(expected by the baseline\)$/);
  t.match(notices[0]!.message, /token_cost off by one/, "the expected failure keeps its evidence");
  t.match(notices[1]!.message, /Expected by the baseline, so not errors: B3/);
  t.match(notices[1]!.message, /Policy: baseline of 1 expected failure NOT met \(failing as expected: B3; unexpected failures: F5\)/);
  const none = commands(renderGithub(synthetic(results)));
  t.equal(of(none, "error").length, 2, "without a baseline both are errors");
});
