import { XMLParser, XMLValidator } from "fast-xml-parser";
import t from "tap";
import { renderJunit } from "../../src/report/junit.ts";
import type { RunReport } from "../../src/verdict/report.ts";
import { reportValidator } from "../../src/schema/compile.ts";
import { check, ev, real, realRuns, RUNS, synthetic } from "../helpers/reports.ts";

/** Everything an XML writer gets wrong: markup, entities, a CDATA end, quotes, a NUL, an escape, a lone surrogate, a non-character. */
const HOSTILE = `<frame a="1" b='2'> &amp; & ]]> \u0000 \u001b[31m \uD800 \uFFFF end`;
/** The same text as a reader gets it back: forbidden characters made visible. */
const HOSTILE_READ = `<frame a="1" b='2'> &amp; & ]]> \\u0000 \\u001b[31m \\ud800 \\uffff end`;

const hostile = synthetic([
  check("X1", "fail", [ev("fail", HOSTILE, { expected: `"${HOSTILE}"`, actual: "]]>]]>", lines: [3, 4] })], { title: `a <title> & "quotes" ]]>` }),
  check("X2", "warn", [ev("warn", `warned ${HOSTILE}`, { level: "SHOULD" })], { level: "MUST" }),
  check("X3", "skip", [], { reason: `skipped because ${HOSTILE}` }),
  check("X4", "info", [ev("info", "a MAY note", { level: "MAY" })]),
  check("X5", "pass", [ev("pass", "fine")]),
]);

const FORBIDDEN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/u;
/** Text as a reader gets it back: what XML forbids, made visible. */
const read = (s: string): string => s.replace(new RegExp(FORBIDDEN_XML, "gu"), (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

interface Case {
  testcase: Array<{
    classname: string;
    name: string;
    failure?: { message: string; type: string; "#text"?: string };
    error?: { message: string; type: string; "#text"?: string };
    skipped?: { message: string } | "";
    "system-out"?: string;
  }>;
  tests: string;
  failures: string;
  skipped: string;
  errors: string;
  time: string;
  name: string;
}

function parse(xml: string): { suites: Case[]; root: Record<string, unknown> } {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    // Decode character references (&#10;) too, as every conforming XML parser does.
    htmlEntities: true,
    isArray: (name) => name === "testsuite" || name === "testcase" || name === "property",
  });
  const doc = parser.parse(xml) as { testsuites: Record<string, unknown> & { testsuite: Case[] } };
  return { suites: doc.testsuites.testsuite, root: doc.testsuites };
}

async function cases(): Promise<Array<[string, RunReport]>> {
  const { ok, b3, dead } = await realRuns();
  return [
    ["the conformant reference provider", ok],
    ["B3-utf16-length", b3],
    ["a provider that cannot start", dead],
    ["hostile evidence", hostile],
    ["every check skipped", synthetic([check("A1", "skip", [], { reason: "no A" }), check("A2", "skip", [], { reason: "no B" })])],
    ["no checks at all", synthetic([])],
  ];
}

t.test("the synthetic reports are reports", async (t) => {
  const validate = reportValidator();
  t.ok(validate(JSON.parse(JSON.stringify(hostile))), JSON.stringify(validate.errors));
});

t.test("JUnit XML has the structure CI reporters read", async (t) => {
  for (const [name, report] of await cases()) {
    t.test(name, async (t) => {
      const xml = renderJunit(report);
      t.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/);
      t.equal(XMLValidator.validate(xml), true, "well-formed");
      t.notMatch(xml, FORBIDDEN_XML, "no character XML 1.0 forbids");
      t.notOk(xml.includes("]]>"), "no raw CDATA end");

      const { suites, root } = parse(xml);
      t.equal(suites.length, 1, "one testsuite");
      const suite = suites[0]!;
      const s = report.summary;
      t.equal(suite.name, "cgp-conform");
      t.same([suite.tests, suite.failures, suite.skipped, suite.errors], [s.total, s.fail, s.skip, s.unobserved].map(String), "counts are the summary's");
      t.same([root.tests, root.failures, root.skipped, root.errors], [s.total, s.fail, s.skip, s.unobserved].map(String), "testsuites totals too");
      t.match(suite.time, /^\d+(\.\d+)?$/);

      const testcases = suite.testcase ?? [];
      t.equal(testcases.length, report.results.length, "one testcase per check");
      report.results.forEach((r, i) => {
        const c = testcases[i]!;
        t.equal(c.classname, `cgp-conform.${report.target.kind}`);
        t.equal(c.name, `${r.id}: ${read(r.title)}`, `${r.id} named by its id and title`);
        t.equal(c.failure !== undefined, r.status === "fail", `${r.id}: <failure> iff fail`);
        t.equal(c.error !== undefined, r.status === "unobserved", `${r.id}: <error> iff not observed (a test that could not be carried out)`);
        t.equal(c.skipped !== undefined, r.status === "skip", `${r.id}: <skipped> iff skip`);
        t.equal(c["system-out"] !== undefined, r.status === "warn" || r.status === "info", `${r.id}: <system-out> iff warn/info`);
        if (r.status === "fail") {
          t.equal(c.failure!.type, r.level);
          const body = c.failure!["#text"] ?? "";
          for (const e of r.evidence.filter((e) => e.status === "fail")) {
            t.ok(body.includes(read(e.message.split("\n")[0]!)), `${r.id}: evidence message in the failure text`);
            if (e.expected !== undefined) t.ok(body.includes("expected:"), "expected shown");
            if (e.actual !== undefined) t.ok(body.includes("actual:"), "actual shown");
            if (e.lines.length > 0) t.ok(body.includes(`transcript lines: ${e.lines.join(", ")}`), "lines shown");
          }
        }
        if (r.status === "skip" && typeof c.skipped === "object") t.ok(c.skipped.message.length > 0);
      });
    });
  }
});

t.test("a real failure carries the requirement, the expected and the actual", async (t) => {
  const report = await real([...RUNS.b3]);
  const b3 = parse(renderJunit(report)).suites[0]!.testcase.find((c) => c.name.startsWith("B3: "))!;
  const body = b3.failure!["#text"]!;
  t.match(body, /requirement: token_cost MUST equal ceil\(utf8_byte_length\(content\) \/ 4\)\./);
  t.match(body, /expected: 50/);
  t.match(body, /actual: +18/);
  t.match(b3.failure!.message, /declares token_cost 18/);
  t.match(b3.failure!.message, /\(\+\d+ more\)$/, "the message counts the findings it does not show");
});

t.test("hostile text survives as the text it was", async (t) => {
  const xml = renderJunit(hostile);
  const [x1, x2, x3] = parse(xml).suites[0]!.testcase;
  t.equal(x1!.name, `X1: a <title> & "quotes" ]]>`);
  t.equal(x1!.failure!.message, HOSTILE_READ);
  t.ok(x1!.failure!["#text"]!.includes(`expected: "${HOSTILE_READ}"`), "expected, decoded");
  t.ok(x1!.failure!["#text"]!.includes("actual:   ]]>]]>"), "a CDATA end in actual, decoded");
  t.ok(x1!.failure!["#text"]!.includes("transcript lines: 3, 4"));
  t.match(x2!["system-out"]!, /^WARN\n/);
  t.ok(x2!["system-out"]!.includes(`WARN [SHOULD]: warned ${HOSTILE_READ}`));
  t.same(x3!.skipped, { message: `skipped because ${HOSTILE_READ}` });
});

t.test("a message's line breaks survive in an attribute", async (t) => {
  const report = synthetic([check("L1", "fail", [ev("fail", "first line\nsecond\tline\r\nthird")])]);
  const c = parse(renderJunit(report)).suites[0]!.testcase[0]!;
  t.equal(c.failure!.message, "first line\nsecond\tline\r\nthird");
});
