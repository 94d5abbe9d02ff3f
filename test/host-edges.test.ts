/**
 * `cgp-conform host` end to end, its options and edges: --only and
 * baselines, usage errors and hosts that cannot run, the run's token never
 * leaving cgp-conform whatever the host prints, the output caps, the fault
 * scenarios' bound, what each scenario hands the host, and a signal mid-run.
 * (test/host.test.ts runs the reference host and the hosts written apart.)
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { cgp, cli, fake, ROOT, RUN_TMP } from "./helpers/live.ts";
import { hostRun } from "./helpers/host-run.ts";

const cgpRun = (args: string[]) => cgp(args, { reject: false, env: { NO_COLOR: "1", TMPDIR: RUN_TMP }, cwd: ROOT });
import type { RunReport } from "../src/verdict/report.ts";
import { SCENARIOS } from "../src/protocol/host-scenarios.ts";

t.test("--only, --baseline and --write-baseline take host check ids", async (t) => {
  const dir = mkdtempSync(join(RUN_TMP, "baseline-"));
  const written = join(dir, "baseline.txt");
  const first = await hostRun(["--write-baseline", written], [...fake("host-two-defects"), "{provider}"]);
  t.equal(first.exitCode, 1);
  t.match(readFileSync(written, "utf8"), /^host:H4 /m, "the baseline lists host:H4");
  const green = await hostRun(["--baseline", written], [...fake("host-two-defects"), "{provider}"]);
  t.equal(green.exitCode, 0, "with the baseline the known failures are green");
  const only = await hostRun(["--only", "H4,host:C2"], [...fake("host-two-defects"), "{provider}"]);
  t.same(only.report?.results.map((x) => x.id).sort(), ["host:C2", "host:H4"], "--only selects by id with or without host:");
  const unknown = await cli(["host", "--only", "Z9", "--", ...fake("host-two-defects"), "{provider}"]);
  t.equal(unknown.exitCode, 2, "an unknown id is a usage error");
});

t.test("usage errors and hosts that cannot run", async (t) => {
  const none = await cli(["host"]);
  t.equal(none.exitCode, 2, "no host command: exit 2");
  t.match(none.stderr, /no host command/);
  const both = await cli(["host", "--", "sh", "-c", "echo {provider} {url}"]);
  t.equal(both.exitCode, 2, "both placeholders and no --transport: exit 2");
  t.match(both.stderr, /--transport/);
  const missing = await hostRun([], ["/nonexistent/host", "{provider}"]);
  t.equal(missing.exitCode, 3, "a host that cannot be started: exit 3");
  t.match(missing.report?.could_not_run_reason, /could not be started/);
  const typo = await hostRun([], ["sh", "-c", "no-such-host-command {provider}"]);
  t.equal(typo.exitCode, 3, "a shell's command not found: exit 3");
  const deaf = await hostRun([], ["sh", "-c", "echo I ignore my provider"]);
  t.equal(deaf.exitCode, 3, "a host that never starts {provider}: exit 3");
  t.match(deaf.report?.could_not_run_reason, /never reached the provider/);
});

t.test("the run's token never leaves cgp-conform, however the host prints it", async (t) => {
  const dir = mkdtempSync(join(RUN_TMP, "token-"));
  const saved = join(dir, "token");
  // A host that keeps the token where the test can read it, and prints it three ways.
  const script = [
    "const fs = require('node:fs');",
    "const tok = process.env.CGP_PROVIDER_TOKEN;",
    `fs.writeFileSync(${JSON.stringify(saved)}, tok);`,
    "console.log('token ' + tok);",
    "console.error('b64 ' + Buffer.from(tok).toString('base64'));",
    "console.error('json ' + JSON.stringify({ authorization: 'Bearer ' + tok }));",
  ].join("\n");
  const transcript = join(dir, "host.ndjson");
  const r = await cli([
    "host",
    "--only",
    "C8",
    "--transcript",
    transcript,
    "--report",
    `html:${join(dir, "r.html")}`,
    "--",
    process.execPath,
    "-e",
    script,
    "{url}",
  ]);
  const token = readFileSync(saved, "utf8");
  t.ok(token.length >= 24, "the host was given a token");
  for (const [what, text] of [
    ["stdout", r.stdout],
    ["stderr", r.stderr],
    ["transcript", readFileSync(transcript, "utf8")],
    ["html report", readFileSync(join(dir, "r.html"), "utf8")],
  ] as const) {
    t.notOk(text.includes(token), `${what}: no token`);
    t.notOk(text.includes(Buffer.from(token).toString("base64")), `${what}: no base64 of it`);
  }
});

t.test("a leak past the output caps is still found; a host that leaves its provider behind has still ended", async (t) => {
  // Over HTTP: uses the token, prints 2100 lines, then the token.
  const leaky = [
    "const tok = process.env.CGP_PROVIDER_TOKEN;",
    "await fetch(process.argv[1], { method: 'POST', headers: { authorization: 'Bearer ' + tok }, body: JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) });",
    "for (let i = 0; i < 2100; i++) console.error('debug line ' + i);",
    "for (let i = 0; i < 3000; i++) console.error('sending Authorization: Bearer ' + tok);",
  ].join("\n");
  const kept = join(mkdtempSync(join(RUN_TMP, "leak-")), "host.ndjson");
  const r = await hostRun(["--only", "C8", "--transcript", kept], [process.execPath, "--input-type=module", "-e", leaky, "{url}"]);
  const leakEvents = readFileSync(kept, "utf8")
    .split("\n")
    .filter((l) => l.includes('"leaked"'));
  t.ok(leakEvents.length <= SCENARIOS.length, `3000 leaking lines past the cap are one event a scenario, not one a line (${leakEvents.length})`);
  const c8 = r.report?.results.find((x) => x.id === "host:C8");
  t.equal(c8?.status, "fail", "C8 fails on a token printed after 2100 lines");
  t.ok(
    c8?.evidence.some((e) => e.status === "fail" && /carries the run's bearer token/.test(e.message)),
    "naming the leak",
  );

  // Over stdio: starts its provider with stderr inherited (the pipe stays open after it exits), gives up on it, and exits 1.
  const walkaway = [
    "const { spawn } = require('node:child_process');",
    "const argv = JSON.parse(process.env.CGP_PROVIDER_ARGV);",
    "const p = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });",
    "p.stdin.write(JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) + '\\n');",
    "p.stdout.once('data', () => { p.stdin.write(JSON.stringify({ type: 'query', query: { goal: 'g', kinds: [], anchors: [], max_frames: 1, max_tokens: 100 } }) + '\\n'); setTimeout(() => { console.error('timeout: gave up'); process.exit(1); }, 300); });",
  ].join("\n");
  const w = await hostRun(["--only", "S11-robust"], [process.execPath, "-e", walkaway]);
  const s11 = w.report?.results.find((x) => x.id === "host:S11-robust");
  t.equal(s11?.status, "pass", `S11-robust: the host ended on its own (${s11?.evidence.map((e) => e.message).join("; ")})`);
});

t.test("crash-mid-query and stops-answering are bounded by --fault-timeout where --timeout is shorter, and say the bound they waited", async (t) => {
  // Gives its provider 1.2 s after the query, then reports it and exits 1: a deadline longer than --timeout.
  const patient = [
    "const { spawn } = require('node:child_process');",
    "const argv = JSON.parse(process.env.CGP_PROVIDER_ARGV);",
    "const p = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });",
    "p.stdin.write(JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) + '\\n');",
    "p.stdout.once('data', () => { p.stdin.write(JSON.stringify({ type: 'query', query: { goal: 'g', kinds: [], max_frames: 1, max_tokens: 100 } }) + '\\n'); setTimeout(() => { console.error('provider gave no answer in 1200 ms'); process.exit(1); }, 1200); });",
  ].join("\n");
  const run = async (floor: string) => {
    const r = await cli(["host", "--json", "--only", "S11-robust", "--timeout", "400", "--fault-timeout", floor, "--", process.execPath, "-e", patient]);
    return (JSON.parse(r.stdout) as RunReport).results.find((x) => x.id === "host:S11-robust")!;
  };
  const given = await run("4000");
  t.equal(given.status, "pass", `ended on its own within the floor (${given.evidence.map((e) => e.message).join("; ")})`);
  const short = await run("600");
  t.equal(short.status, "info");
  t.ok(
    short.evidence.some((e) => /did not end within 600 ms, this scenario's bound/.test(e.message)),
    short.evidence.map((e) => e.message).join("; "),
  );
});

t.test("a host process that never ends is killed at the fault scenarios' bound, over stdio and over HTTP, and is gone", async (t) => {
  // Each host writes its pid to the file it is given, sends a handshake and a query, and never ends (no read deadline).
  const query = "{ type: 'query', query: { goal: 'g', kinds: [], anchors: [], max_frames: 1, max_tokens: 100 } }";
  const hosts = {
    stdio: [
      "const { spawn } = require('node:child_process');",
      "require('node:fs').appendFileSync(process.argv[1], process.pid + '\\n');",
      "const argv = JSON.parse(process.env.CGP_PROVIDER_ARGV);",
      "const p = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });",
      "p.stdin.write(JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) + '\\n');",
      `p.stdout.once('data', () => p.stdin.write(JSON.stringify(${query}) + '\\n'));`,
      "setInterval(() => {}, 1000);",
    ],
    http: [
      "require('node:fs').appendFileSync(process.argv[1], process.pid + '\\n');",
      "const headers = { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.CGP_PROVIDER_TOKEN };",
      "const post = (b) => fetch(process.argv[2], { method: 'POST', headers, body: JSON.stringify(b) }).then((r) => r.text());",
      `post({ type: 'handshake', protocol_version: 'contextgraph/1.0' }).then(() => post(${query})).catch(() => {});`,
      "setInterval(() => {}, 1000);",
    ],
  };
  for (const [transport, lines] of Object.entries(hosts)) {
    const pids = join(mkdtempSync(join(RUN_TMP, "never-ends-")), "pids");
    const command = [process.execPath, "-e", lines.join("\n"), pids, ...(transport === "http" ? ["{url}"] : [])];
    const r = await cli(["host", "--json", "--only", "S11-robust", "--timeout", "400", "--fault-timeout", "600", "--", ...command]);
    const s11 = (JSON.parse(r.stdout) as RunReport).results.find((x) => x.id === "host:S11-robust")!;
    const said = s11.evidence.map((e) => e.message).join("; ");
    t.equal(s11.status, "info", `${transport}: S11-robust informs (${said})`);
    t.match(said, /did not end within 600 ms, this scenario's bound, and was killed/, `${transport}: killed at the bound, and said so`);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    t.equal(started.length, 2, `${transport}: a host process in each of the two fault scenarios`);
    for (const pid of started) t.throws(() => process.kill(pid, 0), { code: "ESRCH" }, `${transport}: host ${pid} is gone`);
  }
});

t.test("the host is told of consent in egress-scopes-consented alone: CGP_CONSENT there, {consent} everywhere", async (t) => {
  // A host that reports what it was told, handshakes, and exits.
  const script = [
    "const { spawn } = require('node:child_process');",
    "console.log('told env=' + (process.env.CGP_CONSENT ?? '(unset)') + ' arg=' + process.argv[1]);",
    "const argv = JSON.parse(process.env.CGP_PROVIDER_ARGV);",
    "const p = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });",
    "p.stdin.write(JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) + '\\n');",
    "p.stdout.once('data', () => { p.stdin.end(); process.exit(0); });",
  ].join("\n");
  const file = join(mkdtempSync(join(RUN_TMP, "consent-")), "host.ndjson");
  // A CGP_CONSENT in cgp-conform's own environment grants the host nothing: only the scenario sets it.
  const r = await cli(["host", "--only", "C6", "--transcript", file, "--", process.execPath, "-e", script, "{consent}"], { env: { CGP_CONSENT: "egress" } });
  t.not(r.exitCode, 2, r.stderr);
  const told = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { scenario: string; dir: string; line?: string })
    .filter((e) => e.dir === "stdout" && e.line?.startsWith("told "))
    .map((e) => `${e.scenario}: ${e.line}`);
  t.same(told, ["lock-step: told env=(unset) arg=none", "egress-scopes: told env=(unset) arg=none", "egress-scopes-consented: told env=egress arg=egress"]);
});

t.test("every scenario hands the host the run's CA: the same PEM file in CGP_PROVIDER_CA and {ca}", async (t) => {
  const script = [
    "const fs = require('node:fs');",
    "const path = process.env.CGP_PROVIDER_CA;",
    "const pem = fs.readFileSync(path, 'utf8');",
    "const cert = new (require('node:crypto').X509Certificate)(pem);",
    "console.log('ca same=' + (path === process.argv[1]) + ' ca=' + cert.ca + ' subject=' + cert.subject.replace(/\\n/g, ' '));",
  ].join("\n");
  const file = join(mkdtempSync(join(RUN_TMP, "ca-")), "host.ndjson");
  const r = await cli(["host", "--only", "C2", "--transcript", file, "--", process.execPath, "-e", script, "{ca}", "{url}"]);
  t.not(r.exitCode, 2, r.stderr);
  const told = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { scenario: string; dir: string; line?: string })
    .filter((e) => e.dir === "stdout")
    .map((e) => `${e.scenario}: ${e.line}`);
  t.same(told, ["lock-step: ca same=true ca=true subject=CN=cgp-conform host run CA", "egress: ca same=true ca=true subject=CN=cgp-conform host run CA"]);
});

t.test("a signal mid-run: the scenarios it cut short or kept from running are skipped, not failed", async (t) => {
  const slow = ["sh", "-c", "sleep 30 & wait", "--", "{provider}"];
  const child = cgpRun(["host", "--json", "--timeout", "20000", "--", ...slow]);
  await new Promise((r) => setTimeout(r, 1500));
  child.kill("SIGINT");
  const r = await child;
  const report = JSON.parse(r.stdout) as RunReport;
  t.ok(report.interrupted, `the report says it was interrupted (${report.interrupted})`);
  t.ok(report.could_not_run, "and that the run could not be made in full");
  t.same(
    report.results.filter((x) => x.untestable).map((x) => x.id),
    [],
    "no check is an untestable fail for scenarios the signal kept from running",
  );
});
