import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import t, { type Test } from "tap";
import { replay } from "../../src/cli/offline.ts";
import { LINE_MAX_BYTES, TRANSCRIPT_MAX_BYTES, TRANSCRIPT_MAX_LINES, renderHtml } from "../../src/report/html/index.ts";
import { registerSecret, redact } from "../../src/secret/redact.ts";
import type { Transcript, TranscriptEvent } from "../../src/transcript/types.ts";
import type { RunReport } from "../../src/verdict/report.ts";
import { type Status } from "../../src/verdict/status.ts";
import { cli } from "../helpers/live.ts";
import { check, ev, LIVE_TIMEOUT, realRuns, synthetic } from "../helpers/reports.ts";

interface El {
  tag: string;
  attrs: Record<string, string>;
  /** All text beneath it, entities decoded. */
  text: string;
}

type Node = Record<string, unknown>;

/** Every element of a page, in document order, after checking the page is well-formed. */
function parse(html: string): El[] {
  const valid = XMLValidator.validate(html);
  if (valid !== true) throw new Error(`not well-formed: ${JSON.stringify(valid.err)}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    preserveOrder: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: false,
  });
  const out: El[] = [];
  const walk = (nodes: Node[]): string => {
    let text = "";
    for (const node of nodes) {
      if ("#text" in node) {
        text += String(node["#text"]);
        continue;
      }
      const tag = Object.keys(node).find((k) => k !== ":@")!;
      const el: El = { tag, attrs: (node[":@"] as Record<string, string>) ?? {}, text: "" };
      out.push(el);
      el.text = walk(node[tag] as Node[]);
      text += el.text;
    }
    return text;
  };
  walk(parser.parse(html) as Node[]);
  return out;
}

const byId = (els: El[], id: string): El[] => els.filter((e) => e.attrs.id === id);
const withClass = (els: El[], cls: string): El[] => els.filter((e) => (e.attrs.class ?? "").split(" ").includes(cls));
const bytes = (s: string): number => Buffer.byteLength(s, "utf8");

/** The page's checks, in page order: their ids and statuses. */
function checksOf(els: El[]): Array<{ id: string; status: string }> {
  return withClass(els, "check").map((e) => ({ id: e.attrs.id!.replace(/^check-/, ""), status: e.attrs.class!.match(/s-(\w+)/)![1]! }));
}

/** What every page must hold, whatever the report: the verdict, one element per check in failures-first order, no dangling link. */
function assertPage(t: Test, html: string, report: RunReport, verdict: string): El[] {
  const els = parse(html);
  t.equal(els.find((e) => e.tag === "h1")?.text, verdict, "the verdict is the heading");
  t.match(els.find((e) => e.tag === "title")?.text, new RegExp(`^cgp-conform: ${verdict} · `), "and the title");
  const s = report.summary;
  const tiles = els
    .slice(els.indexOf(withClass(els, "summary")[0]!) + 1)
    .filter((e) => e.tag === "li")
    .slice(0, s.unobserved > 0 ? 7 : 6);
  t.same(
    tiles.map((e) => e.text.replace(/\s+/g, " ").trim()),
    [
      `${s.total} checks`,
      `${s.pass} pass`,
      `${s.fail} fail`,
      ...(s.unobserved > 0 ? [`${s.unobserved} not observed`] : []),
      `${s.warn} warn`,
      `${s.info} info`,
      `${s.skip} skip`,
    ],
    "the counts",
  );
  t.ok(withClass(els, "meta")[0]!.text.includes(`cgp-conform ${report.tool.version}`), "the tool version");

  const page = checksOf(els);
  t.same(page.map((c) => c.id).sort(), report.results.map((r) => r.id).sort(), "every check is on the page");
  for (const r of report.results) {
    t.equal(byId(els, `check-${r.id}`).length, 1, `${r.id}: one element`);
    t.equal(withClass(els, "cid").filter((e) => e.text === r.id).length, 1, `${r.id}: its id shown once`);
  }
  const rank: Record<string, number> = { fail: 0, warn: 1, info: 2, skip: 3, pass: 4 };
  t.same(
    page.map((c) => rank[c.status]),
    [...page.map((c) => rank[c.status]!)].sort((a, b) => a - b),
    "failures first, passes last",
  );
  for (const c of page) {
    const el = byId(els, `check-${c.id}`)[0]!;
    t.equal(el.tag, c.status === "pass" || c.status === "skip" ? "details" : "section", `${c.id}: ${c.status === "pass" ? "folded" : "shown"}`);
  }

  const ids = els.map((e) => e.attrs.id).filter((x): x is string => x !== undefined);
  t.equal(new Set(ids).size, ids.length, "element ids are unique");
  const idSet = new Set(ids);
  const dangling = els.filter((e) => e.attrs.href !== undefined && !idSet.has(e.attrs.href.slice(1)));
  t.same(
    dangling.map((e) => e.attrs.href),
    [],
    "every link is to an element of the page",
  );
  assertInert(t, html, els);
  return els;
}

/** Nothing on the page runs or loads: no script, no resource, no handler, a policy that forbids both. */
function assertInert(t: Test, html: string, els: El[]): void {
  const tags = new Set(els.map((e) => e.tag));
  for (const bad of ["script", "img", "iframe", "object", "embed", "link", "base", "form", "svg", "video", "audio", "source", "meta-refresh"])
    t.notOk(tags.has(bad), `no <${bad}> element`);
  t.notMatch(html, /<script/i, "no <script anywhere in the markup");
  const attrs = els.flatMap((e) => Object.entries(e.attrs).map(([k, v]) => ({ tag: e.tag, k, v })));
  t.same(
    attrs.filter((a) => /^on/i.test(a.k) || ["src", "srcset", "action", "formaction", "poster", "background", "style"].includes(a.k.toLowerCase())),
    [],
    "no handlers, no resource attributes, no inline style attributes",
  );
  t.same(
    attrs.filter((a) => a.k === "href" && !a.v.startsWith("#")),
    [],
    "every href is a fragment of the page",
  );
  // Provider text has every < escaped, so each raw < opens one of the page's own tags.
  const tagsRaw = html.match(/<[^>]*>/g) ?? [];
  t.same(
    tagsRaw.filter((tag) => /https?:|\/\/|url\(/i.test(tag)),
    [],
    "no tag names a network address",
  );
  const css = els
    .filter((e) => e.tag === "style")
    .map((e) => e.text)
    .join("\n");
  t.notMatch(css, /url\(|@import|https?:/i, "the CSS loads nothing");
  const csp = els.find((e) => e.tag === "meta" && e.attrs["http-equiv"] === "Content-Security-Policy");
  t.match(csp?.attrs.content, /default-src 'none'/, "a policy that forbids loading anything");
  t.notMatch(csp?.attrs.content, /script-src/, "and allows no script");
}

/** A transcript of `n` events (lines 2 … n+1), each made by `line`. */
function transcriptOf(n: number, line: (k: number) => string = (k) => `{"type":"frames","id":"q-${k}"}`): Transcript {
  const events: TranscriptEvent[] = Array.from({ length: n }, (_, i) => ({
    n: i + 2,
    probe: "sample-query",
    session: "shared",
    t: i,
    step: "sample",
    dir: i % 2 === 0 ? "send" : "recv",
    line: line(i + 2),
  }));
  return {
    header: {
      cgp_conform_transcript: 1,
      tool_version: "0.1.0",
      host_version: "contextgraph/1.0",
      target: { kind: "stdio", command: ["./provider"] },
      timeout_ms: 5000,
      probes: ["sample-query"],
      trust_roots: [],
      started_at: "2026-11-30T00:00:00Z",
      consent: { grants: [] },
      run_facts: {},
    },
    events,
  };
}

const row = (els: El[], n: number): El | undefined => byId(els, `L${n}`)[0];
const rowLine = (els: El[], n: number): string => {
  const i = els.indexOf(row(els, n)!);
  return els.slice(i).find((e) => e.tag === "pre")!.text;
};

t.test("real runs: the verdict, every check once, failures first, nothing that runs or loads", async (t) => {
  const { ok, b3, dead } = await realRuns();
  const cases: Array<[string, RunReport, string]> = [
    ["the conformant reference provider", ok, "CONFORMANT"],
    ["B3-utf16-length", b3, "NOT CONFORMANT"],
    ["a provider that cannot start", dead, "COULD NOT RUN"],
  ];
  for (const [name, report, verdict] of cases)
    t.test(name, async (t) => {
      const html = renderHtml(report);
      const els = assertPage(t, html, report, verdict);
      t.equal(withClass(els, "transcript").length, 0, "no transcript given: none shown");
      t.match(byId(els, "transcript")[0]?.text, /not given to this report/);
      t.same(
        els.filter((e) => e.attrs.href?.startsWith("#L")).map((e) => e.attrs.href),
        [],
        "and no line links",
      );
      if (report.could_not_run) t.match(withClass(els, "why-not")[0]?.text, /the provider could not be started/, "why it could not run, under the verdict");
    });
});

t.test("a real failure: the rule, expected and actual, occurrences and also", async (t) => {
  const { b3 } = await realRuns();
  const els = parse(renderHtml(b3));
  const section = byId(els, "check-B3")[0]!;
  t.equal(section.tag, "section");
  t.ok(section.text.includes("token_cost MUST equal ceil(utf8_byte_length(content) / 4)."), "the spec sentence");
  const rule = withClass(els, "rule").find((e) => e.text === b3.results.find((r) => r.id === "B3")!.requirement);
  t.ok(rule, "quoted from the report's requirement, as a blockquote");
  t.match(section.text, /expected\s*50/);
  t.match(section.text, /actual\s*18/);
  t.match(section.text, /7 occurrences of this finding; the next:/);
  t.ok(withClass(els, "also").length > 0, "the next messages of the group");
});

t.test("end to end: --report html:FILE from a live run, and from a replay of its transcript, every cited line linked to its anchor", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cgp-html-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const html = join(dir, "r.html");
  const transcript = join(dir, "t.ndjson");
  const run = await cli(["reference", "--misbehave", "B3-utf16-length", "--json", "--report", `html:${html}`, "--transcript", transcript, ...LIVE_TIMEOUT]);
  t.equal(run.exitCode, 1, run.stderr.slice(-500));
  const report = JSON.parse(run.stdout) as RunReport;
  // The replay path, in process: its report gets the transcript it re-scores.
  const replayed = join(dir, "replay.html");
  const write = process.stdout.write;
  let code: number;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    code = replay({ file: transcript, json: false, verbose: false, report: [`html:${replayed}`] });
  } finally {
    process.stdout.write = write;
  }
  t.equal(code, 1, "the replay is not conformant either");
  const total = readFileSync(transcript, "utf8").trimEnd().split("\n").length;

  for (const [name, file] of [
    ["the live run", html],
    ["the replay", replayed],
  ] as const)
    t.test(name, async (t) => {
      const page = readFileSync(file, "utf8");
      const els = assertPage(t, page, report, "NOT CONFORMANT");
      const cited = new Set(report.results.flatMap((r) => r.evidence.flatMap((e) => e.lines)));
      t.ok(cited.size > 10, `the run cites lines (${cited.size})`);
      const hrefs = new Set(els.map((e) => e.attrs.href).filter((h) => h?.startsWith("#L")));
      for (const n of cited) {
        t.equal(byId(els, `L${n}`).length, 1, `line ${n}: its anchor`);
        t.ok(hrefs.has(`#L${n}`), `line ${n}: a link to it`);
      }
      const b3 = byId(els, "check-B3")[0]!;
      const b3links = els.slice(els.indexOf(b3)).filter((e) => e.tag === "a" && e.attrs.href?.startsWith("#L"));
      t.equal(b3links[0]?.attrs.href, "#L5", "the failure's first cited line is linked from it");
      t.equal(withClass(els, "transcript").length, 1, "the transcript is there");
      for (let n = 1; n <= total; n++) t.equal(byId(els, `L${n}`).length, 1, `line ${n} of ${total} is embedded, numbered`);
      t.equal(row(els, total + 1), undefined, "and no more");
      t.match(row(els, 1)!.text, /"cgp_conform_transcript":1/, "line 1 is the header");
      t.match(rowLine(els, 3), /"type":"handshake_ack"/, "line 3 is the provider's ack");
      t.match(row(els, 5)!.text, /cited by .*B3/, "a cited line names the checks that cite it");
      t.ok(bytes(page) < 4 * 1024 * 1024, `a few MB at most (${bytes(page)} bytes)`);
    });
});

const HOSTILE = "</script><script>alert(1)</script>";

t.test("provider text is escaped everywhere: no element, attribute or entity of its own", async (t) => {
  const report = synthetic(
    [
      check(
        "X1",
        "fail",
        [
          ev("fail", `message ${HOSTILE} & "quoted" 'single' \u0007bell \u202Eevil`, {
            expected: '<b onclick="x()">',
            actual: "a\r\nb &amp; &lt;",
            also: [`also ${HOSTILE}`],
            occurrences: 4,
            lines: [2, 3],
          }),
        ],
        { title: `title ${HOSTILE}`, requirement: `rule <img src=x onerror=alert(3)>` },
      ),
      check("X2", "skip", [], { reason: `skipped <iframe src="https://evil.example/">` }),
      check("X3", "pass", [ev("pass", `fine <a href="https://evil.example/">link</a>`)], {
        title: `<link rel="stylesheet" href="https://evil.example/x.css">`,
      }),
    ],
    {
      target: { kind: "stdio", command: ["./provider", `--name=${HOSTILE}`] },
      could_not_run: false,
    },
  );
  const transcript = transcriptOf(3, (k) => (k === 3 ? `{"title":"${HOSTILE}","x":"<style>body{background:url(https://evil.example/)}</style>"}` : "{}"));
  const html = renderHtml(report, transcript);
  const els = assertPage(t, html, report, "NOT CONFORMANT");
  t.ok(html.includes("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), "the hostile string is in the page, escaped");
  t.ok(
    els.some((e) => e.tag === "pre" && e.text.includes(`message ${HOSTILE} & "quoted" 'single' \\u0007bell \\u202eevil`)),
    "and reads back as sent",
  );
  t.ok(
    els.some((e) => e.tag === "pre" && e.text === '<b onclick="x()">'),
    "expected, as sent",
  );
  t.ok(
    els.some((e) => e.tag === "pre" && e.text === "a\r\nb &amp; &lt;".replace(/\r\n/g, "\n")),
    "actual, its entities not decoded twice",
  );
  t.ok(byId(els, "check-X1")[0]!.text.includes(`title ${HOSTILE}`), "the title");
  t.ok(withClass(els, "rule")[0]!.text === "rule <img src=x onerror=alert(3)>", "the rule");
  t.ok(byId(els, "check-X2")[0]!.text.includes('skipped <iframe src="https://evil.example/">'), "the skip reason");
  t.ok(withClass(els, "meta")[0]!.text.includes(`--name=${HOSTILE}`), "the target");
  t.equal(els.filter((e) => e.tag === "style").length, 1, "the page's own style only");
  t.match(rowLine(els, 3), new RegExp(`^\\{"title":"${HOSTILE.replace(/[()/]/g, "\\$&")}"`), "the transcript line, as recorded");
  t.notMatch(html, /\u0007|\u202E/, "no control or bidi character raw");
  t.equal(els.find((e) => e.tag === "title")!.text.includes("<"), true, "the title element holds the text, escaped");
  t.equal(els.filter((e) => e.tag === "title").length, 1);
});

t.test("a line sent as bytes that are not UTF-8, or holding a CR or NUL, reads escaped", async (t) => {
  const report = synthetic([check("R1", "fail", [ev("fail", "after a line of bytes that are not UTF-8 (bytes ff fe, line 2)", { lines: [2, 3, 4] })])]);
  const transcript = transcriptOf(3, (k) => (k === 3 ? '{"type":"error","code":"bad_request"}' : k === 4 ? '{"goal":"a\rb\u0000c"}\r' : "\uFFFD\uFFFD"));
  transcript.events[0] = { ...transcript.events[0]!, line_hex: "fffe" };
  const html = renderHtml(report, transcript);
  const els = assertPage(t, html, report, "NOT CONFORMANT");
  t.equal(rowLine(els, 2), "\\xFF\\xFE", "each byte that is no UTF-8 as \\xHH, not as U+FFFD");
  t.ok(
    els.some((e) => e.attrs.class === "remark" && e.text.includes("not UTF-8: the bytes sent were ff fe")),
    "the row says what was sent",
  );
  t.equal(rowLine(els, 4), '{"goal":"a\\u000db\\u0000c"}\\u000d', "a CR is shown escaped, never as a line break");
  t.notMatch(html, /\r|\u0000/, "no CR or NUL raw in the page");
});

t.test("an http target is named by its URL, as text only", async (t) => {
  const report: RunReport = { ...synthetic([check("A1", "pass", [ev("pass", "ok")])]), target: { kind: "http", url: "https://provider.example/cgp" } };
  const html = renderHtml(report);
  const els = parse(html);
  t.ok(withClass(els, "meta")[0]!.text.includes("http: https://provider.example/cgp"));
  assertInert(t, html, els);
});

t.test("every cited line is linked, and only lines the page holds", async (t) => {
  const report = synthetic([
    check("A1", "fail", [ev("fail", "broke", { lines: [4, 9, 999] })]),
    check("A2", "warn", [ev("warn", "meh", { level: "SHOULD", lines: [4] })], { level: "SHOULD" }),
    check("A3", "pass", [ev("pass", "fine", { lines: [2, 10] })]),
  ]);
  const els = parse(renderHtml(report, transcriptOf(10)));
  for (const n of [2, 4, 9, 10]) {
    t.equal(byId(els, `L${n}`).length, 1, `line ${n} has its anchor`);
    t.ok(
      els.some((e) => e.tag === "a" && e.attrs.href === `#L${n}` && e.text === String(n)),
      `line ${n} is linked`,
    );
  }
  t.equal(row(els, 999), undefined, "a line the transcript does not have gets no anchor");
  t.ok(
    els.some((e) => e.attrs.class === "nolink" && e.text === "999"),
    "and is shown unlinked",
  );
  t.match(row(els, 4)!.text, /cited by A1, A2/, "a line cited twice names both checks");
  t.ok(withClass([row(els, 4)!], "cited").length === 1, "and is marked");
  t.equal(withClass([row(els, 5)!], "cited").length, 0, "an uncited line is not");
});

t.test("caps: a huge line is cut and says how much; a huge transcript keeps its cited lines and says what it left out", async (t) => {
  t.test("one line of 1 MiB", async (t) => {
    const huge = `{"content":"${"<&x".repeat(350_000)}"}`;
    const report = synthetic([check("A1", "fail", [ev("fail", huge, { expected: huge, lines: [3] })])]);
    const html = renderHtml(
      report,
      transcriptOf(3, (k) => (k === 3 ? huge : "{}")),
    );
    const els = parse(html);
    const line = rowLine(els, 3);
    const cut = bytes(huge) - LINE_MAX_BYTES;
    t.ok(line.startsWith(huge.slice(0, 100)), "the line's start is kept");
    t.match(line, new RegExp(`… ${cut.toLocaleString("en-US")} more bytes cut$`), "and the cut is said");
    t.ok(bytes(line) < LINE_MAX_BYTES + 100, `the line's embedded text stays near ${LINE_MAX_BYTES} bytes (${bytes(line)})`);
    const message = withClass(els, "msg")[0]!.text;
    t.match(message, /more bytes cut$/, "the evidence message too");
    t.ok(bytes(message) < LINE_MAX_BYTES + 100);
    t.ok(bytes(html) < 200 * 1024, `the page stays small (${bytes(html)} bytes)`);
  });

  t.test("a multi-byte character is never split", async (t) => {
    const line = "é".repeat(LINE_MAX_BYTES);
    const els = parse(
      renderHtml(
        synthetic([check("A1", "pass", [ev("pass", "ok")])]),
        transcriptOf(2, () => line),
      ),
    );
    const shown = rowLine(els, 2);
    t.ok(shown.startsWith("é".repeat(LINE_MAX_BYTES / 2)), "whole characters, up to the cap");
    t.notOk(shown.includes("\uFFFD"), "no broken character");
    t.match(shown, new RegExp(`… ${(LINE_MAX_BYTES).toLocaleString("en-US")} more bytes cut$`));
  });

  t.test("20,000 lines of 2 KiB", async (t) => {
    const n = 20_000;
    const cited = [3, 15_000, 19_999];
    const report = synthetic([check("A1", "fail", [ev("fail", "broke", { lines: cited })]), check("A2", "pass", [ev("pass", "fine", { lines: [20_001] })])]);
    const html = renderHtml(
      report,
      transcriptOf(n, (k) => `{"k":${k},"pad":"${"x".repeat(2048)}"}`),
    );
    const els = parse(html);
    const rows = els.filter((e) => e.tag === "tr" && /^L\d+$/.test(e.attrs.id ?? ""));
    t.ok(rows.length <= TRANSCRIPT_MAX_LINES, `at most ${TRANSCRIPT_MAX_LINES} lines embedded (${rows.length})`);
    t.ok(rows.length > 100, "but many are");
    for (const c of [...cited, 20_001]) {
      t.equal(byId(els, `L${c}`).length, 1, `cited line ${c} is embedded`);
      t.ok(
        els.some((e) => e.attrs.href === `#L${c}`),
        `and linked`,
      );
    }
    for (const c of [14_998, 14_999, 15_001, 15_002]) t.equal(byId(els, `L${c}`).length, 1, `line ${c}, beside a cited one, gives context`);
    t.equal(byId(els, "L15004").length, 0, "a line far from any cited one, past the cap, is left out");
    t.ok(row(els, 1), "the header is kept");
    const note = withClass(els, "tnote")[0]!.text;
    const left = n + 1 - rows.length;
    t.match(note, new RegExp(`^${(n + 1).toLocaleString("en-US")} lines, ${rows.length.toLocaleString("en-US")} shown\\.`), "how many lines, and shown");
    t.match(note, new RegExp(`${left.toLocaleString("en-US")} lines left out`), "how many were left out");
    const gaps = els.filter((e) => e.tag === "tr" && e.attrs.class === "gap");
    t.ok(gaps.length >= 2, "each gap is marked where it is");
    t.ok(
      gaps.some((g) => /lines \d+–\d+ left out \([\d,]+ lines\)/.test(g.text)),
      "with its range",
    );
    t.ok(bytes(html) < TRANSCRIPT_MAX_BYTES + 512 * 1024, `the page stays a few MB (${bytes(html)} bytes)`);
  });

  t.test("thousands of findings", async (t) => {
    const many = Array.from({ length: 5000 }, (_, i) => ev("fail", `finding ${i} ${"y".repeat(3000)}`, { lines: [2 + (i % 50)] }));
    const html = renderHtml(synthetic([check("A1", "fail", many), check("A2", "fail", many), check("A3", "pass", [ev("pass", "ok")])]), transcriptOf(60));
    const els = parse(html);
    t.equal(byId(els, "check-A3").length, 1, "every check is still on the page");
    t.match(byId(els, "check-A1")[0]!.text, /… and [\d,]+ more observations not shown here \(the JSON report has them all\)/, "and says what it left out");
    t.ok(bytes(html) < 4 * 1024 * 1024, `the page stays a few MB (${bytes(html)} bytes)`);
  });
});

t.test("the verdict's words and reason", async (t) => {
  const cases: Array<[string, RunReport, string, RegExp | undefined]> = [
    ["conformant", synthetic([check("A1", "pass", [ev("pass", "ok")])]), "CONFORMANT", undefined],
    ["a warn stays conformant", synthetic([check("A1", "warn", [ev("warn", "meh", { level: "SHOULD" })], { level: "SHOULD" })]), "CONFORMANT", undefined],
    [
      "interrupted",
      synthetic([check("A1", "pass", [ev("pass", "ok")])], {
        could_not_run: true,
        conformant: false,
        interrupted: "SIGINT",
        could_not_run_reason: "the run was interrupted by SIGINT before it finished",
      }),
      "COULD NOT RUN",
      /interrupted by SIGINT/,
    ],
  ];
  for (const [name, report, verdict, reason] of cases)
    t.test(name, async (t) => {
      const els = assertPage(t, renderHtml(report), report, verdict);
      const header = els.find((e) => e.tag === "header")!;
      t.match(header.attrs.class, verdict === "CONFORMANT" ? /v-ok/ : verdict === "NOT CONFORMANT" ? /v-fail/ : /v-cnr/);
      const why = withClass(els, "why-not");
      if (reason) {
        t.equal(why.length, 1, "one reason");
        t.match(why[0]!.text, reason);
        t.ok(header.text.endsWith(why[0]!.text), "under the verdict");
      } else t.equal(why.length, 0, "no reason");
    });
});

t.test("C8: a credential in evidence or the transcript, escaped by the page, is still redacted on the way out", async (t) => {
  const SECRET = `tok&<en>"-7f3a9c2e5b1d`;
  registerSecret(SECRET);
  const report = synthetic([check("A1", "fail", [ev("fail", `echoed ${SECRET} back`, { actual: SECRET, lines: [2] })])]);
  const html = redact(
    renderHtml(
      report,
      transcriptOf(2, () => `{"authorization":"Bearer ${SECRET}"}`),
    ),
  );
  const decoded = html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  const fragments = Array.from({ length: SECRET.length - 7 }, (_, i) => SECRET.slice(i, i + 8));
  for (const f of fragments) t.notOk(html.includes(f) || decoded.includes(f), `no 8-character piece ${JSON.stringify(f)}`);
  t.ok(html.includes("[redacted]"));
  t.ok(parse(html).length > 0, "the page is still well-formed");
});

const STATUSES: Status[] = ["pass", "fail", "warn", "info", "skip"];
t.test("every status renders with its badge", async (t) => {
  const report = synthetic(STATUSES.map((s, i) => check(`S${i}`, s, s === "skip" ? [] : [ev(s, `a ${s}`)], s === "skip" ? { reason: "n/a" } : {})));
  const els = parse(renderHtml(report));
  for (const [i, s] of STATUSES.entries()) {
    const el = byId(els, `check-S${i}`)[0]!;
    const badge = els.slice(els.indexOf(el)).find((e) => (e.attrs.class ?? "").startsWith("badge"))!;
    t.equal(badge.text, s.toUpperCase(), `${s}: its badge`);
  }
});
