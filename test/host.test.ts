/**
 * `cgp-conform host` end to end: the bundled reference host is conformant on
 * both transports, and judged on what it composes and reports; docs/hosts.md's
 * example host and a host written independently for this test, with two
 * planted defects, are caught with evidence naming the line they sent.
 * (test/host-edges.test.ts holds the options, usage errors and edges.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { CGP, cli, fake, RUN_TMP } from "./helpers/live.ts";
import { hostRun } from "./helpers/host-run.ts";

import type { RunReport } from "../src/verdict/report.ts";

const referenceHost = (...rest: string[]): string[] => [...CGP, "reference-host", "--timeout", "1000", ...rest];

t.test("the reference host is conformant, over stdio and over HTTP", async (t) => {
  for (const [transport, command] of [
    ["stdio", referenceHost("--", "{provider}")],
    ["http", referenceHost("--url", "{url}")],
  ] as const) {
    const r = await hostRun([], command);
    t.equal(r.exitCode, 0, `${transport}: exit 0 (${r.stderr.slice(-500)})`);
    t.ok(r.report?.conformant, `${transport}: conformant`);
    t.equal(r.report?.target.kind, "host");
    const bad = r.report?.results.filter((x) => x.status !== "pass" && x.status !== "skip").map((x) => `${x.id} ${x.status}`);
    t.same(bad, [], `${transport}: every host check passes or skips`);
    for (const id of ["host:C4", "host:C7"]) {
      const c = r.report?.results.find((x) => x.id === id);
      t.equal(c?.status, "skip", `${transport}: ${id} skips without --listen`);
      t.match(c?.reason, /`--listen ADDR` enables it/, `${transport}: ${id} says how to enable it`);
    }
    const c8 = r.report?.results.find((x) => x.id === "host:C8");
    t.equal(c8?.status, transport === "http" ? "pass" : "skip", `${transport}: C8 ${transport === "http" ? "judged" : "skipped (stdio uses no token)"}`);
  }
});

t.test("given {context}, {usage} and every provider, the reference host is judged on what it composes and reports, and passes", async (t) => {
  const files = ["--context", "{context}", "--usage", "{usage}"];
  for (const [transport, command] of [
    ["stdio", referenceHost(...files, "--", "{provider}", "--and", "--", "{provider2}", "--and", "--", "{provider3}")],
    ["http", referenceHost(...files, "--url", "{url}", "{url2}", "{url3}")],
  ] as const) {
    const file = join(mkdtempSync(join(RUN_TMP, "compose-")), "host.ndjson");
    const r = await hostRun(["--only", "UR1,CR1-*,H4,V1,R3,B2,F9", "--transcript", file], command);
    t.equal(r.exitCode, 0, `${transport}: exit 0 (${r.stderr.slice(-500)})`);
    const saved = readFileSync(file, "utf8");
    t.match(saved, /"dir":"context"/, `${transport}: the blocks are in the transcript`);
    t.match(saved, /"dir":"usage"/, `${transport}: and the reports`);
    const again = await cli(["replay", "--json", file]);
    const ran = new Set(r.report!.results.map((x) => x.id));
    t.same(
      (JSON.parse(again.stdout) as RunReport).results.filter((x) => ran.has(x.id)).map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
      r.report!.results.map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
      `${transport}: replay scores the files' lines as the run did`,
    );
    t.same(
      r.report?.results.map((x) => [x.id, x.status]),
      [
        ["host:H4", "pass"],
        ["host:F9", "pass"],
        ["host:B2", "pass"],
        ["host:UR1", "pass"],
        ["host:CR1-order", "pass"],
        ["host:CR1-render", "pass"],
        ["host:V1", "pass"],
        ["host:R3", "pass"],
      ],
      `${transport}: judged, and passed`,
    );
    const h4 = r.report!.results.find((x) => x.id === "host:H4")!;
    t.ok(
      h4.evidence.some((e) => /scenario compose \(\{(provider|url)2\}\)/.test(e.message)),
      `${transport}: a wire check judges each provider of a scenario of several`,
    );
  }
});

t.test(
  "a command naming no further provider: the composition checks judge the scenarios of one provider, and a check with none skips, naming the placeholder",
  async (t) => {
    const r = await hostRun(["--only", "UR1,CR1-*,F10"], referenceHost("--", "{provider}"));
    t.equal(r.exitCode, 0, r.stderr.slice(-500));
    const of = (id: string) => r.report!.results.find((x) => x.id === id)!;
    t.equal(of("host:CR1-order").status, "pass", "CR1-order is judged on compose-one and its twins");
    t.ok(
      of("host:CR1-order").evidence.every((e) => /^scenarios? compose-one/.test(e.message)),
      "on them alone: the scenarios of several providers did not run",
    );
    t.equal(of("host:CR1-render").status, "pass");
    t.equal(of("host:F10").status, "skip", "a score threshold across providers shows only across two: F10 has no scenario of one");
    t.match(
      of("host:F10").reason,
      /score-ranges: it serves 2 providers, and the host command names no \{provider2\}: name \{provider2\} where the host takes further providers \(or name CGP_PROVIDER_COMMANDS in the command line and read them from it\)/,
    );
    t.equal(of("host:UR1").status, "pass", "UR1 judges the reports the host wrote to CGP_USAGE_PATH, unnamed in its command");
  },
);

t.test("docs/hosts.md's example host passes the checks it is written for, and fails them when broken", async (t) => {
  const page = readFileSync(new URL("../docs/hosts.md", import.meta.url), "utf8");
  const code = /```js\n(\/\/ example-host\.mjs[\s\S]*?)```/.exec(page)?.[1];
  t.ok(code, "docs/hosts.md holds the example");
  const dir = mkdtempSync(join(RUN_TMP, "example-"));
  const run = async (source: string) => {
    const file = join(dir, `host-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, source);
    return hostRun(
      ["--only", "UR1,CR1-*,F10"],
      [process.execPath, file, "{context}", "{usage}", "--provider={provider}", "--provider={provider2}", "--provider={provider3}"],
    );
  };
  const r = await run(code!);
  t.same(
    r.report?.results.map((x) => [x.id, x.status]),
    [
      ["host:F10", "pass"],
      ["host:UR1", "pass"],
      ["host:CR1-order", "pass"],
      ["host:CR1-render", "pass"],
    ],
    r.stderr.slice(-500),
  );
  const unsorted = await run(code!.replace(".flat().sort(", ".flat(); [].sort("));
  t.equal(unsorted.report?.results.find((x) => x.id === "host:CR1-order")?.status, "fail", "left in arrival order, it fails CR1-order");
});

t.test("a host written apart, with two planted defects, is caught at the lines it sent", async (t) => {
  const file = join(mkdtempSync(join(RUN_TMP, "fake-")), "host.ndjson");
  const r = await hostRun(["--transcript", file], [...fake("host-two-defects"), "{provider}"]);
  t.equal(r.exitCode, 1, "not conformant: exit 1");
  const failed = r.report!.results.filter((x) => x.status === "fail").map((x) => x.id);
  t.same(failed.sort(), ["host:C2", "host:H4"], "exactly the two planted defects fail");
  const events = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { n: number; dir: string; line?: string });
  const at = (n: number) => events.find((e) => e.n === n);
  for (const [id, sent] of [
    ["host:H4", /"id":"fake-1"/],
    ["host:C2", /"type":"query"/],
  ] as const) {
    const finding = r.report!.results.find((x) => x.id === id)!.evidence.find((e) => e.status === "fail")!;
    t.match(finding.message, /line \d+/, `${id}: the evidence names the line`);
    const cited = finding.lines.map(at).filter((e) => e?.dir === "host");
    t.ok(cited.length > 0, `${id}: it cites a line the host sent`);
    t.ok(
      cited.some((e) => sent.test(e!.line ?? "")),
      `${id}: the cited line is what the host sent: ${cited[0]?.line}`,
    );
  }
  t.match(r.report!.results.find((x) => x.id === "host:H4")!.evidence.find((e) => e.status === "fail")!.message, /"fake-1"/, "H4 quotes the id");

  // The saved host transcript scores the same offline.
  const again = await cli(["replay", "--json", file]);
  t.equal(again.exitCode, 1, "replay: not conformant either");
  const replayed = JSON.parse(again.stdout) as RunReport;
  t.same(
    replayed.results.map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
    r.report!.results.map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
    "replay gives the same verdicts and evidence",
  );
  const broken = join(mkdtempSync(join(RUN_TMP, "bad-")), "host.ndjson");
  writeFileSync(broken, readFileSync(file, "utf8").replace(/"dir":"host"/, '"dir":"sideways"'));
  const refused = await cli(["replay", broken]);
  t.equal(refused.exitCode, 2, "a malformed host transcript is a usage error");
  t.match(refused.stderr, /is not a host transcript event: dir "sideways"/);
});
