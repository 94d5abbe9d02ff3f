// What a provider author and a CI engineer meet first, through the CLI as shipped:
// a provider that cannot start, a crash with a traceback, the closing line,
// timings, kept transcripts, baselines, progress on a terminal.
import { execa } from "execa";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { reportValidator } from "../src/schema/compile.ts";
import { CGP, cli, fake, ROOT, RUN_TMP } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-new-user-"));
const lines = (s: string) => s.split("\n").length;

t.test("a typo in a shell provider command is one line, could not start, exit 3", async (t) => {
  const r = await cli(["stdio", "--", "sh", "-c", "./no-such-provider --flag"]);
  t.equal(r.exitCode, 3);
  t.match(r.stdout, /COULD NOT RUN: the provider never started: it exited with code 127 \(the shell's "command not found"\) before writing a line/);
  t.match(r.stdout, /provider stderr[^\n]*:\n\s+sh: .*no-such-provider.*not found/, "the shell's own words are shown");
  t.ok(lines(r.stdout) < 15, `${lines(r.stdout)} lines, not one per check`);
  t.notMatch(r.stdout, /FAIL\s+H1/);
  const verbose = await cli(["stdio", "--verbose", "--", "sh", "-c", "./no-such-provider"]);
  t.match(verbose.stdout, /NOT OBSERVED\s+H1/, "--verbose still lists every check");
});

t.test("a program that does not exist: could not start, one line of reason, exit 3", async (t) => {
  const r = await cli(["stdio", "--", "/nonexistent/cgp-provider"]);
  t.equal(r.exitCode, 3);
  const closing = r.stdout.split("\n").at(-1)!;
  t.match(closing, /^COULD NOT RUN: the provider could not be started: .*ENOENT.*\(exit 3\)$/);
  t.ok(lines(r.stdout) < 10, `${lines(r.stdout)} lines`);
});

t.test("a provider that crashes on a query: its traceback is shown, and the run ends with the failing ids", async (t) => {
  const r = await cli(["stdio", "--", ...fake("crash-on-query")]);
  t.equal(r.exitCode, 1);
  t.match(r.stdout, /provider stderr \(4 lines, session [^)]*\):\n    Traceback \(most recent call last\):\n[\s\S]*ZeroDivisionError: division by zero/);
  // One cause: the crash is R1's finding, and what the provider never answered is not observed, not failed.
  t.match(r.stdout.split("\n").at(-1)!, /^NOT CONFORMANT: \d+ checks failed: .*\bR1\b.*; \d+ checks not observed: .*\bB3\b/);
  const quiet = await cli(["stdio", "--quiet", "--", ...fake("crash-on-query")]);
  t.notMatch(quiet.stdout, /^\s+(PASS|SKIP)\s/m, "--quiet: no passing or skipped checks");
  t.match(quiet.stdout, /^\s+FAIL\s+R1\s/m, "--quiet: the failures");
  t.match(quiet.stdout, /^\s+NOT OBSERVED\s+B3\s/m, "--quiet: and the checks not observed");
  const json = await cli(["stdio", "--json", "--", ...fake("crash-on-query")]);
  const report = JSON.parse(json.stdout);
  t.match(report.provider_stderr.lines.join("\n"), /ZeroDivisionError/);
  t.equal(report.exit_code, json.exitCode, "the report states the exit code the run exits with");
  t.equal(report.outcome, "not-conformant");
  t.same(
    report.reasons.map((x: { kind: string }) => x.kind),
    ["failed", "not-observed"],
    "and why: what failed, what was not observed",
  );
  t.ok(report.reasons[0].checks.includes("R1"), "R1 among the failures");
  t.ok(reportValidator()(report), JSON.stringify(reportValidator().errors));
});

t.test("the JSON report is versioned and carries the run's start, its duration and each check's time", async (t) => {
  const junit = join(tmp, "cgp.xml");
  const r = await cli(["reference", "--json", "--report", `junit:${junit}`]);
  const xml = readFileSync(junit, "utf8");
  const suiteTime = Number(/<testsuite [^>]*time="([0-9.]+)"/.exec(xml)?.[1]);
  t.ok(suiteTime > 0, `JUnit's testsuite time is the run's duration: ${suiteTime} s`);
  t.ok(/<testcase [^>]*time="0\.\d{3}"/.test(xml) && /<testcase [^>]*time="(?!0\.000)[0-9.]+"/.test(xml), "testcases carry their own times");
  const report = JSON.parse(r.stdout);
  t.equal(report.report_version, 7);
  t.match(report.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.ok(Number.isInteger(report.duration_ms) && report.duration_ms > 0, `duration_ms ${report.duration_ms}`);
  t.ok(
    report.results.every((x: { time_ms: unknown }) => Number.isInteger(x.time_ms)),
    "every check has time_ms",
  );
  t.ok(reportValidator()(report), JSON.stringify(reportValidator().errors));
  t.notMatch(JSON.stringify(report), /"[a-z]+[A-Z][a-zA-Z]*":/, "one naming style: snake_case keys only");
});

t.test("the bundled provider run in process is not named as a spawned command; --spawn is", async (t) => {
  const inProcess = await cli(["reference", "--only", "H1"]);
  t.match(inProcess.stdout.split("\n")[0], / · stdio, run in this process \(--spawn starts it as .+ fixture /);
  const json = JSON.parse((await cli(["reference", "--only", "H1", "--json"])).stdout);
  t.equal(json.target.in_process, true, "--json says in_process");
  t.ok(reportValidator()(json), JSON.stringify(reportValidator().errors));
  const spawned = await cli(["reference", "--only", "H1", "--spawn"]);
  t.match(spawned.stdout.split("\n")[0], / · stdio: .+ fixture /);
  t.notMatch(spawned.stdout.split("\n")[0], /in this process/);
  t.notOk("in_process" in JSON.parse((await cli(["reference", "--only", "H1", "--spawn", "--json"])).stdout).target);
});

t.test("a run that fails keeps its transcript, names it, and it replays to the same verdicts", async (t) => {
  const r = await cli(["reference", "--misbehave", "B3-utf16-length"]);
  const path = /transcript \(the lines the evidence cites\): (\S+)/.exec(r.stdout)?.[1];
  t.ok(path && existsSync(path), `kept at ${path}`);
  const replay = await cli(["replay", path!]);
  t.equal(replay.exitCode, 1);
  t.match(replay.stdout, /FAIL\s+B3\s/);
  const json = await cli(["reference", "--misbehave", "B3-utf16-length", "--json"]);
  t.match(json.stderr, /transcript of this run \(the lines the evidence cites\): \S+\.ndjson/, "under --json the path goes to stderr");
  JSON.parse(json.stdout);
  const { statSync, readdirSync } = await import("node:fs");
  t.equal(statSync(path!).mode & 0o777, 0o600, "readable by this user alone");
  t.equal(statSync(join(path!, "..")).mode & 0o777, 0o700, "in a directory of its own");
  const before = readdirSync(RUN_TMP).filter((d) => d.startsWith("cgp-conform-run-")).length;
  const passing = await cli(["reference"]);
  t.notMatch(passing.stdout, /transcript/);
  t.equal(readdirSync(RUN_TMP).filter((d) => d.startsWith("cgp-conform-run-")).length, before, "a conformant run leaves nothing behind");
  const tap = await cli(["reference", "--misbehave", "B3-utf16-length", "--only", "B3", "--report", "tap"]);
  t.match(tap.stderr, /transcript of this run \(the lines the evidence cites\): \S+/, "another report on stdout: the path goes to stderr");
  const nowhere = await cli(["stdio", "--only", "B3", "--", ...fake("crash-on-query")], { env: { TMPDIR: "/nonexistent-cgp" } });
  t.equal(nowhere.exitCode, 1, "a transcript that cannot be kept unasked changes no exit code");
  t.match(nowhere.stderr, /the transcript could not be kept/);
  const noRoot = await cli(["reference"], { env: { TMPDIR: "/nonexistent-cgp" } });
  t.equal(noRoot.exitCode, 3);
  t.match(noRoot.stderr, /could not run: no directory for the reference provider's files/);
});

t.test("baselines: written from a run, green while only they fail, red once stale unless allowed", async (t) => {
  const file = join(tmp, "baseline.txt");
  const first = await cli(["reference", "--misbehave", "B3-utf16-length", "--write-baseline", file]);
  t.equal(first.exitCode, 1, "writing a baseline does not change the run's own verdict");
  t.match(readFileSync(file, "utf8"), /^B3\s+# Each frame's token_cost/m);
  const held = await cli(["reference", "--misbehave", "B3-utf16-length", "--baseline", file]);
  t.equal(held.exitCode, 0);
  t.match(held.stdout.split("\n").at(-1)!, /^NOT CONFORMANT \(failed: B3\); baseline green: every failure is in the baseline \(exit 0\)$/);
  const fixed = await cli(["reference", "--baseline", file]);
  t.equal(fixed.exitCode, 1, "B3 passes now: the baseline is stale");
  t.match(
    fixed.stdout.split("\n").at(-1)!,
    /^CONFORMANT \(no check failed\); baseline red: 1 baselined check passes \(B3\): the baseline is stale \(exit 1\)$/,
  );
  const allowed = await cli(["reference", "--baseline", file, "--allow-stale-baseline"]);
  t.equal(allowed.exitCode, 0);
  const misuse = await cli(["reference", "--allow-stale-baseline"]);
  t.equal(misuse.exitCode, 2);
  t.match(misuse.stderr, /--allow-stale-baseline needs --baseline FILE/);
  const unwritable = await cli(["reference", "--misbehave", "B3-utf16-length", "--baseline", file, "--report", "json:/dev/full"]);
  t.equal(unwritable.exitCode, 3);
  t.match(
    unwritable.stdout.split("\n").at(-1)!,
    /baseline green: every failure is in the baseline \(exit 3: an output asked for could not be written; see below\)$/,
  );
  const none = await cli(["stdio", "--write-baseline", join(tmp, "none.txt"), "--", "/nonexistent/x"]);
  t.equal(none.exitCode, 3);
  t.match(none.stderr, /no baseline written/);
  t.notOk(existsSync(join(tmp, "none.txt")));
});

t.test("progress: a line on a terminal's stderr, nothing off one", async (t) => {
  const off = await cli(["reference"]);
  t.equal(off.stderr, "", "not a terminal: stderr stays empty");
  const quoted = [...CGP, "reference", "--misbehave", "H3-hang-on-foreign", "--timeout", "1200", "--startup-timeout", "3000"].map((w) => `'${w}'`).join(" ");
  // The mode leaves a foreign handshake to hang, a session's first exchange: the run lasts its startup deadline, here
  // 3 s (not the default 30 s), a dozen redraws of the progress line. script(1) gives the run a terminal; its output is what the terminal showed.
  const on = await execa("script", ["-qec", `${quoted} >/dev/null`, "/dev/null"], { cwd: ROOT, reject: false, env: { NO_COLOR: "1" } });
  t.match(on.stdout, /cgp-conform: \d+\/\d+ probes done · running [^\n]* · \d+\.\d s/);
  t.match(on.stdout, /\r\x1b\[K$/, "and the line is erased at the end");
});

t.test("--report github with no file is the only report on stdout", async (t) => {
  const r = await cli(["reference", "--misbehave", "B3-utf16-length", "--report", "github"]);
  t.match(r.stdout, /^::error /m);
  t.notMatch(r.stdout, /^\s+FAIL\s+B3/m, "no human report beside it");
});

t.test("yargs as users expect it: did-you-mean, completion, examples and exit codes in --help", async (t) => {
  const cmd = await cli(["stdo", "--", "./p"]);
  t.equal(cmd.exitCode, 2);
  t.match(cmd.stderr, /unknown command "stdo": did you mean stdio\?/);
  const opt = await cli(["stdio", "--tiemout", "5", "--", "./p"]);
  t.equal(opt.exitCode, 2);
  t.match(opt.stderr, /Unknown argument: tiemout \(--tiemout: did you mean --timeout\?\)/);
  const bare = await cli(["stdio", "python3", "provider.py"]);
  t.equal(bare.exitCode, 2);
  t.match(bare.stderr, /a command line goes after --, as in: cgp-conform stdio -- python3 provider\.py\)/, "a forgotten -- is named, with the line that works");
  const typo = await cli(["explain", "b33"]);
  t.equal(typo.exitCode, 2);
  t.match(typo.stderr, /no check, scenario or spec anchor named b33: did you mean B3\?/);
  t.match((await cli(["explain", "host:UR2"])).stderr, /did you mean host:UR1\?/);
  t.notMatch((await cli(["explain", "zzzzzzzz"])).stderr, /did you mean/, "no guess when nothing is near");
  const format = await cli(["stdio", "--report", "jsno", "--", "./p"]);
  t.equal(format.exitCode, 2);
  t.match(format.stderr, /unknown report format "jsno" \(did you mean json\?\)/);
  const far = await cli(["stdio", "--zzzzzz", "--", "./p"]);
  t.notMatch(far.stderr, /did you mean/, "no guess when nothing is near");
  const completion = await cli(["completion"]);
  t.match(completion.stdout, /cgp-conform completion >> ~\/\.bashrc/);
  const offered = await cli(["--get-yargs-completions", "cgp-conform", "sel"]);
  t.match(offered.stdout, /^selftest$/m);
  const help = await cli(["--help"]);
  t.match(help.stdout, /Examples:\n\s+cgp-conform stdio -- \.\/my-provider/);
  t.match(help.stdout, /Exit codes:\n\s+0\s+conformant[\s\S]*\n\s+3\s+could not run/);
  const list = await cli(["list"]);
  t.match(list.stdout, /^\d+ checks of providers \(stdio, http, reference\) and \d+ host checks /m, "list counts in words");
});
