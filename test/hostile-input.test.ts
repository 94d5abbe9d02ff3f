import t from "tap";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSuite } from "../src/engine/run.ts";
import { deeperThan, MAX_DEPTH, nestingDepth, parseObj } from "../src/protocol/envelope.ts";
import { fromNdjson, TranscriptFormatError } from "../src/transcript/file.ts";
import { cli, fake } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-hostile-"));

t.test("nesting is measured without recursion, and a line nested past the bound is never parsed", async (t) => {
  const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  t.equal(nestingDepth('{"s":"[[[[{{{{"}'), 1, "brackets inside strings do not count");
  t.ok(nestingDepth(deep) > MAX_DEPTH);
  t.equal(parseObj(deep), undefined);
  t.same(parseObj('{"type":"x","a":[[1]]}'), { type: "x", a: [[1]] });
  // deeperThan scans only a text with more brackets than the bound: each side of that line, shallow and deep.
  const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
  t.notOk(deeperThan(nested(MAX_DEPTH)), "as many brackets as the bound, as deep as the bound: not deeper");
  t.ok(deeperThan(nested(MAX_DEPTH + 1)), "one more, one level deeper: deeper");
  t.notOk(
    deeperThan(
      `[${Array(MAX_DEPTH + 1)
        .fill("{}")
        .join(",")}]`,
    ),
    "more brackets than the bound, two levels deep: scanned, not deeper",
  );
  t.notOk(deeperThan(`{"s":"${"[".repeat(MAX_DEPTH + 1)}"}`), "brackets inside a string, past the bound: scanned, not counted");
  t.ok(deeperThan(deep, MAX_DEPTH));
});

t.test("lone surrogates and 100 000-deep nesting from a provider: the verdict still comes out", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("hostile-frames") }, { timeoutMs: 5_000 });
  t.equal(report.results.length, 41);
  const f7 = report.results.find((r) => r.id === "F7")!;
  t.equal(f7.status, "fail", "a frame with no commitment cannot carry a matching attestation");
  t.match(f7.evidence.map((e) => `${e.message} ${e.expected ?? ""}`).join("\n"), /no commitment \(string holds a lone UTF-16 surrogate/);
  t.notOk(
    report.results.some((r) => r.evidence.some((e) => /could not score/.test(e.message))),
    "no check gave up on what the provider sent",
  );
});

t.test("a transcript is input: each malformed shape is a usage error naming the line, never an internal error", async (t) => {
  const header = { cgp_conform_transcript: 1, host_version: "contextgraph/1.0", timeout_ms: 5, target: { kind: "stdio", command: ["x"] } };
  const event = { probe: "handshake", session: "s", t: 0, step: "handshake", dir: "send", line: "{}" };
  const cases: Array<[string, unknown[], RegExp]> = [
    ["a url that does not parse", [{ ...header, target: { kind: "http", url: "::nope" } }], /line 1 .*target\.url is not a URL/],
    ["a null step", [header, { ...event, step: null }], /line 2 .*step must be string/],
    ["a number where a line belongs", [header, { ...event, line: 7 }], /line 2 .*line must be string/],
    ["an unknown direction", [header, { ...event, dir: "sideways" }], /line 2 .*dir "sideways"/],
    ["a consent without grants", [{ ...header, consent: { grants: "all" } }], /consent must carry grants/],
  ];
  for (const [what, lines, pattern] of cases)
    t.throws(() => fromNdjson(lines.map((l) => JSON.stringify(l)).join("\n")), { constructor: TranscriptFormatError, message: pattern }, what);
  t.throws(() => fromNdjson(`${JSON.stringify(header)}\n${"[".repeat(100_000)}`), /line 2 is not JSON \(nested deeper/);
  const file = join(tmp, "bad.ndjson");
  writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify({ ...event, step: null })}\n`);
  const r = await cli(["replay", file]);
  t.equal(r.exitCode, 2);
  t.match(r.stderr, /line 2 is not a transcript event: step must be string/);
  t.notMatch(r.stderr, /internal error|    at /);
  // The header's run facts decide whether the run could be made: a fuzzed one is a usage error naming line 1, not a verdict.
  writeFileSync(file, `${JSON.stringify({ ...header, run_facts: { budget_spent: { line: -9223372036854776000, reason: "x" } } })}\n`);
  const facts = await cli(["replay", file]);
  t.equal(facts.exitCode, 2, "a fuzzed run fact is a usage error");
  t.match(facts.stderr, /line 1 is not a cgp-conform transcript header: run_facts\.budget_spent must be/);
  t.notMatch(facts.stderr, /internal error|    at /);
});

t.test("inputs are read with a cap: /dev/zero is refused, not read forever", async (t) => {
  for (const args of [
    ["replay", "/dev/zero"],
    ["validate", "/dev/zero"],
    ["http", "https://127.0.0.1:9/", "--ca", "/dev/zero"],
  ]) {
    const r = await cli(args);
    t.equal(r.exitCode, 2, args.join(" "));
    t.match(r.stderr, /larger than \d+ bytes: not read/);
  }
});

t.test("credentials that cannot travel, and headers that are not headers, are usage errors before anything runs", async (t) => {
  const url = "http://127.0.0.1:9/";
  const crlf = await cli(["http", url, "--bearer-token-env", "TOK"], { env: { TOK: "abc\r\nX-Evil: 1" } });
  t.equal(crlf.exitCode, 2);
  t.match(crlf.stderr, /the token has characters a bearer token cannot carry/);
  t.notMatch(crlf.stderr, /X-Evil|TypeError|    at /);
  const latin = await cli(["http", url, "--bearer-token-env", "TOK"], { env: { TOK: "tökén-ünicode" } });
  t.equal(latin.exitCode, 2);
  const name = await cli(["http", url, "--header", "Bad Name: 1"]);
  t.equal(name.exitCode, 2);
  t.match(name.stderr, /not a valid HTTP header name/);
  const value = await cli(["http", url, "--header", "X-Trace: caf\u0007e"]);
  t.equal(value.exitCode, 2);
  t.match(value.stderr, /the value has characters an HTTP header cannot carry/);
});

t.test("stdout closed early, or an output that cannot be written, never costs the verdict or prints a stack", async (t) => {
  const { execa } = await import("execa");
  const { CGP, ROOT } = await import("./helpers/live.ts");
  const piped = await execa("sh", ["-c", `${CGP.map((w) => `"${w}"`).join(" ")} list | head -c 64 >/dev/null; echo $? >/dev/null`], {
    cwd: ROOT,
    reject: false,
    stderr: "pipe",
  });
  t.notMatch(piped.stderr, /EPIPE|internal error|    at /, "no EPIPE trace when the reader goes away");
  const full = await cli(["stdio", "--report", "json:/dev/full", "--", "/nonexistent/provider"]);
  t.equal(full.exitCode, 3);
  t.match(full.stderr, /cannot write the report \/dev\/full: ENOSPC/);
  t.match(full.stdout, /COULD NOT RUN/, "the human report still came out");
});

t.test("SIGTERM mid-run: the provider is reaped and the directory made for it is removed", async (t) => {
  const { cgp, ROOT } = await import("./helpers/live.ts");
  const { readdirSync } = await import("node:fs");
  const own = mkdtempSync(join(tmpdir(), "cgp-sigterm-"));
  // A provider that hangs on a foreign handshake holds the run for its 20 s timeout: the signal lands mid-run.
  const child = cgp(["reference", "--spawn", "--misbehave", "H3-hang-on-foreign", "--timeout", "20000"], { cwd: ROOT, reject: false, env: { TMPDIR: own } });
  // The directory is made as the run starts, which a loaded machine delays: watched for (up to 15 s), not assumed after a fixed wait.
  const made = () => readdirSync(own).some((d) => d.startsWith("cgp-conform-root-"));
  for (let i = 0; i < 150 && !made(); i++) await new Promise((r) => setTimeout(r, 100));
  t.ok(made(), "the run made its provider's directory");
  // Then a moment for the provider to be spawned and the run to wait on it, so the signal lands mid-run.
  await new Promise((r) => setTimeout(r, 500));
  child.kill("SIGTERM");
  await child;
  t.same(
    readdirSync(own).filter((d) => d.startsWith("cgp-conform-root-")),
    [],
    "and removed it on SIGTERM",
  );
});

t.test("one line of 118 000 frames: scored in full, one finding per defect", async (t) => {
  // Only the run's first query gets the long answer (the process that claims the file), as from a provider with one huge answer.
  const command = ["/usr/bin/env", `HUGE_ONCE=${join(tmp, "huge-once")}`, ...fake("huge-answer")];
  const { transcript, report } = await runSuite({ kind: "stdio", command }, { timeoutMs: 20_000 });
  const longest = Math.max(...transcript.events.map((e) => e.bytes ?? 0));
  t.ok(longest > 14_000_000, `a line of ${longest} bytes was received whole`);
  t.notOk(
    transcript.events.some((e) => e.overLong),
    "no line was cut",
  );
  t.equal(report.results.length, 41);
  t.notOk(
    report.results.some((r) => r.evidence.some((e) => /could not score/.test(e.message))),
    "no check gave up",
  );
  // Every frame of the long answer is judged by every per-frame check; alike findings are one finding with a count.
  const evidence = report.results.reduce((n, r) => n + r.evidence.length, 0);
  t.ok(evidence < 400, `the report holds ${evidence} findings`);
});

t.test("a provider that answers everything with 15 MiB: the run keeps a bounded amount, says so, and could not run", async (t) => {
  const { transcript, report } = await runSuite({ kind: "stdio", command: fake("huge-answer") }, { timeoutMs: 20_000 });
  const kept = transcript.events.reduce((n, e) => n + (e.dir === "recv" ? (e.line?.length ?? 0) : 0), 0);
  t.ok(kept <= 64 * 1024 * 1024 + 16 * 1024 * 1024, `${kept} bytes kept`);
  t.match(
    transcript.events
      .filter((e) => e.note === "flood")
      .map((e) => e.reason)
      .join("\n"),
    /the run received more than it keeps/,
  );
  t.notOk(
    transcript.events.some((e) => e.note === "timeout"),
    "once the budget is spent every session ends then, none waits out its timeout",
  );
  t.equal(report.results.length, 41);
});

t.test(
  "a provider flooding every session (15 MiB answers, bytes that never end): one bound for the whole run, and the record says what was cut and why",
  async (t) => {
    const { transcript, report } = await runSuite({ kind: "stdio", command: fake("flood-huge") }, { timeoutMs: 20_000 });
    const recv = transcript.events.filter((e) => e.dir === "recv");
    const kept = recv.reduce((n, e) => n + (e.line?.length ?? 0), 0);
    t.ok(kept <= 64 * 1024 * 1024 + 16 * 1024 * 1024, `${kept} bytes kept across all sessions`);
    const floods = transcript.events.filter((e) => e.note === "flood");
    t.ok(floods.length > 0, "the sessions were stopped as flooding");
    for (const f of floods) t.match(f.reason, /the run received more than it keeps, across all its sessions/, `${f.session}: stopped by the run's one budget`);
    for (const e of recv.filter((e) => e.overLong))
      t.ok((e.line?.length ?? 0) <= 4096, `${e.session}: a cut line keeps only its first bytes (${e.bytes} read)`);
    t.ok(
      recv.some((e) => !e.overLong && (e.bytes ?? 0) > 14_000_000),
      "the first 15 MiB answer, under the line cap, was kept whole",
    );
    t.notOk(
      transcript.events.some((e) => e.note === "timeout"),
      "every session ended when the budget was spent, none at its timeout",
    );
    t.equal(report.could_not_run, true);
    t.match(report.could_not_run_reason, /the run received more than it keeps/);
  },
);

t.test("SIGTERM or SIGINT mid-run: a partial report marked as interrupted, exit 3", async (t) => {
  const { cgp, ROOT } = await import("./helpers/live.ts");
  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    const child = cgp(["stdio", "--json", "--timeout", "60000", "--", ...fake("never-answers")], { cwd: ROOT, reject: false });
    await new Promise((r) => setTimeout(r, 1500));
    child.kill(sig);
    const r = await child;
    t.equal(r.exitCode, 3, `${sig}: exit 3`);
    const report = JSON.parse(r.stdout) as { interrupted?: string; could_not_run: boolean; could_not_run_reason?: string; results: unknown[] };
    t.equal(report.interrupted, sig);
    t.equal(report.could_not_run, true);
    t.match(report.could_not_run_reason, new RegExp(`interrupted by ${sig}`));
    t.equal(report.results.length, 41, "every check has its verdict on what was observed");
    t.notMatch(r.stderr, /internal error|    at /);
  }
});

t.test("Ctrl-C on a terminal report: what was seen, one line for what the signal kept unseen, the transcript kept", async (t) => {
  const { cgp, ROOT } = await import("./helpers/live.ts");
  const { existsSync } = await import("node:fs");
  const run = async (extra: string[]) => {
    const child = cgp(["stdio", "--timeout", "60000", ...extra, "--", ...fake("silent-after-handshake")], { cwd: ROOT, reject: false, env: { NO_COLOR: "1" } });
    await new Promise((r) => setTimeout(r, 2000));
    child.kill("SIGINT");
    return child;
  };
  const r = await run([]);
  t.equal(r.exitCode, 3, "exit 3: the run was cut short");
  t.match(r.stdout, /^\s+PASS\s+H1\s/m, "the handshake was seen: its verdict is shown");
  t.match(r.stdout, /^ {2}\d+ checks not observed: the run was interrupted by SIGINT before their stimuli were seen through \(--verbose lists them\)$/m);
  t.notMatch(r.stdout, /^\s+NOT OBSERVED\s+B3\s/m, "not one line per check the signal kept unseen");
  const path = /transcript \(the lines the evidence cites\): (\S+)/.exec(r.stdout)?.[1];
  t.ok(path && existsSync(path), `the transcript is kept: ${path}`);
  t.match(
    r.stdout.trimEnd().split("\n").at(-1)!,
    /^COULD NOT RUN: the run was interrupted by SIGINT before it finished: the verdicts are of what was observed until then \(exit 3\)$/,
  );
  const verbose = await run(["--verbose"]);
  t.match(verbose.stdout, /^\s+NOT OBSERVED\s+B3\s/m, "--verbose lists each");
});
