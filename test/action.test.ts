/**
 * The action as a runner runs it: its entry under Node, inputs as INPUT_<NAME>
 * variables, outputs and the step summary in files. The action under test is a
 * copy of what a release tag holds (action.yml, the entry and a Node bundle
 * built from this tree), in a directory whose path holds spaces and non-ASCII,
 * as a runner's may.
 */
import { execa } from "execa";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { INPUTS, argsFrom, input, toolFrom } from "../scripts/action-entry.mjs";
import { buildBundle } from "../scripts/build.mjs";
import { CGP, ROOT } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-action-"));

/** A copy of the action under `dir`: action.yml and its entry, and the Node bundle when `bundle`. */
function actionCopy(dir: string, bundle: boolean): string {
  mkdirSync(join(dir, "scripts"), { recursive: true });
  copyFileSync(join(ROOT, "action.yml"), join(dir, "action.yml"));
  copyFileSync(join(ROOT, "scripts", "action-entry.mjs"), join(dir, "scripts", "action-entry.mjs"));
  if (bundle) buildBundle(join(dir, "dist", "cgp-conform.mjs"));
  return dir;
}

const RELEASED = actionCopy(join(tmp, "a runner's dir é", "action"), true);
const UNBUILT = actionCopy(join(tmp, "main", "action"), false);

/** The runner's environment variable for an input (GitHub uppercases the name, keeps hyphens). */
const inputEnv = (inputs: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]));

/** Run the entry of the action in `dir` as the runner would: inputs in env, outputs and summary in files. */
async function action(inputs: Record<string, string>, dir = RELEASED, extraEnv: Record<string, string> = {}) {
  const run = mkdtempSync(join(tmp, "run-"));
  const output = join(run, "output");
  const summary = join(run, "summary.md");
  writeFileSync(output, "");
  const r = await execa(process.execPath, [join(dir, "scripts", "action-entry.mjs")], {
    reject: false,
    cwd: ROOT,
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: run,
      NO_COLOR: "1",
      ...extraEnv,
      ...inputEnv(inputs),
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  let summaryText = "";
  try {
    summaryText = readFileSync(summary, "utf8");
  } catch {
    // no summary written
  }
  return { ...r, outputs, summary: summaryText };
}

const provider = (mode?: string): string => `${CGP.map((w) => `"${w}"`).join(" ")} fixture --attest${mode ? ` --misbehave ${mode}` : ""}`;

t.test("a conformant provider: outputs, step summary, extra reports, exit 0", async (t) => {
  const junit = join(tmp, "cgp.xml");
  const r = await action({ "provider-command": provider(), report: `junit:${junit}`, timeout: "5000" });
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(r.outputs, { conformant: "true", failed: "0", warned: "0" });
  t.ok(Number(r.outputs.passed) > 30);
  t.match(JSON.parse(readFileSync(r.outputs["report-json"]!, "utf8")), { conformant: true });
  t.match(r.summary, /cgp-conform: CONFORMANT/);
  t.match(readFileSync(junit, "utf8"), /<testsuites/);
  t.match(r.stdout, /^::notice title=cgp-conform/m, "annotations reach the log");
});

t.test("a failing provider: exit 1 and failed=1; a baseline listing the failure makes it green", async (t) => {
  const bad = await action({ "provider-command": provider("B3-floor") });
  t.equal(bad.exitCode, 1);
  t.match(bad.outputs, { conformant: "false", failed: "1" });
  t.match(bad.stdout, /^::error title=B3%3A/m);
  const baseline = join(tmp, "baseline.txt");
  writeFileSync(baseline, "B3  # tokenizer fix pending\n");
  const known = await action({ "provider-command": provider("B3-floor"), baseline: baseline, only: "B*,F1" });
  t.equal(known.exitCode, 0, known.stdout.slice(-600));
  t.match(known.outputs, { conformant: "false", failed: "1" });
});

t.test("inputs are data, never shell: a hostile input is passed verbatim and refused as a pattern", async (t) => {
  const r = await action({ "provider-command": provider(), only: "$(touch pwned);H1" });
  t.equal(r.exitCode, 2);
  t.throws(() => readFileSync(join(ROOT, "pwned")), "nothing ran");
});

t.test("none of provider-command, url and host-command: an error annotation, exit 2", async (t) => {
  const r = await action({});
  t.equal(r.exitCode, 2);
  t.match(r.stdout, /::error::give the action provider-command, url or host-command/);
});

t.test("action.yml declares every input the entry reads, runs the entry with the runner's Node, interpolates nothing", async (t) => {
  const yml = readFileSync(join(ROOT, "action.yml"), "utf8");
  const declared = [...yml.slice(yml.indexOf("inputs:"), yml.indexOf("outputs:")).matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]!);
  t.ok(declared.length >= 8);
  t.same([...declared].sort(), [...INPUTS].sort(), "the inputs action.yml declares are the entry's");
  const source = readFileSync(join(ROOT, "scripts", "action-entry.mjs"), "utf8");
  const read = new Set([...source.matchAll(/\b(?:i|input\((?:e|env),)\s*\(?"([a-z-]+)"\)/g)].map((m) => m[1]!));
  t.same([...read].sort(), [...INPUTS].sort(), "the entry reads every input it declares, and no other");
  t.throws(() => input({}, "no-such-input"), /declares no input no-such-input/, "reading an undeclared input throws");
  t.equal(input({ "INPUT_PROVIDER-COMMAND": "./p" }, "provider-command"), "./p", "INPUT_ and the name uppercased, hyphens kept");
  t.equal(input({}, "url"), "", "an input not given is empty");
  t.match(yml, /^runs:\n(?:\s*#.*\n)*  using: node24\n  main: scripts\/action-entry\.mjs\n?$/m, "a JavaScript action: the runner's Node runs the entry");
  t.notMatch(yml, /\$\{\{/, "no expression is interpolated anywhere");
  t.notMatch(yml, /^\s+(run|steps|shell):/m, "no shell step");
  t.notMatch(yml, /npm (ci|install|run)/, "nothing installed or built on the runner");
  t.notMatch(source, /npm install|"npm"|https?:\/\/|\bfetch\(|node:https?|node:net/, "the entry fetches nothing");
  for (const o of ["conformant", "could-not-run", "passed", "failed", "warned", "skipped", "report-json"]) {
    t.match(yml, new RegExp(`^  ${o}:$`, "m"), `output ${o} declared`);
    t.match(source, new RegExp(`\`${o}=`), `output ${o} written`);
  }
});

t.test("a typo in provider-command: could not start, exit 3, could-not-run=true", async (t) => {
  const r = await action({ "provider-command": "./no-such-provider --stdio" });
  t.equal(r.exitCode, 3);
  t.match(r.outputs, { conformant: "false", "could-not-run": "true" });
  t.match(r.stdout, /COULD NOT RUN: the provider never started: it exited with code 127/);
});

t.test("url together with provider-command is an error, not a silent choice", async (t) => {
  const r = await action({ "provider-command": provider(), url: "https://example.com/cgp" });
  t.equal(r.exitCode, 2);
  t.match(r.stdout, /::error::give the action one of provider-command, url and host-command, not provider-command and url/);
});

t.test("host-command: the bundled reference host through every scenario, conformant; provider-only inputs refused", async (t) => {
  const host = `${CGP.map((w) => `"${w}"`).join(" ")} reference-host --timeout 1000 -- {provider}`;
  // The suite serves its scenario providers as it runs itself, and the reference host gives each 1000 ms: the single
  // binary, when built, runs the suite, through the local-build input (a Node start on a loaded machine is not what is tested).
  const local: Record<string, string> = CGP.length === 1 ? { "cgp-conform-path": CGP[0]! } : {};
  const r = await action({ "host-command": host, "host-timeout": "5000", ...local });
  t.equal(r.exitCode, 0, r.stdout.slice(-2000));
  t.match(r.outputs, { conformant: "true", "could-not-run": "false" });
  t.match(r.summary, /host:H4/);
  const both = await action({ "host-command": host, url: "https://example.com/cgp" });
  t.equal(both.exitCode, 2);
  t.match(both.stdout, /::error::give the action one of provider-command, url and host-command, not url and host-command/);
  const consent = await action({ "host-command": host, consent: "all" });
  t.equal(consent.exitCode, 2);
  t.match(consent.stdout, /::error::consent: for a provider run; host-command runs a host/);
});

t.test("working-directory, transcript, trust-root, deadline and skipped: passed on and reported", async (t) => {
  const dir = mkdtempSync(join(tmp, "wd-"));
  const r = await action({
    "provider-command": provider(),
    "working-directory": dir,
    transcript: "run.ndjson",
    "trust-root": `${dir},${tmp}`,
    deadline: "120000",
  });
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(readFileSync(join(dir, "run.ndjson"), "utf8"), /^\{"cgp_conform_transcript":1/, "the transcript lands in the working directory");
  t.match(r.outputs, { "could-not-run": "false" });
  t.ok(Number(r.outputs.skipped) >= 0 && r.outputs.skipped !== undefined, `skipped=${r.outputs.skipped}`);
  const missing = await action({ "provider-command": provider(), "working-directory": join(tmp, "nope") });
  t.equal(missing.exitCode, 2);
});

t.test("the version input is gone: giving it is an error naming the release to pin, and nothing runs", async (t) => {
  const ran = join(mkdtempSync(join(tmp, "version-")), "ran");
  const r = await action({ version: "0.1.0", "provider-command": `touch "${ran}"` }, RELEASED, { GITHUB_ACTION_REPOSITORY: "someone/cgp-conform" });
  t.equal(r.exitCode, 2);
  t.match(
    r.stdout,
    /^::error::version: the action installs nothing.*pin the action at that release by its commit SHA \(uses: someone\/cgp-conform@<the 40-hex commit SHA of v0\.1\.0>  # v0\.1\.0\), and drop version$/m,
  );
  t.notOk(existsSync(ran), "the provider never started");
  t.same(r.outputs, {}, "no outputs");
  const hostile = await action({ version: "0.1.0\n::warning::injected%0A", "provider-command": "true" });
  t.equal(hostile.exitCode, 2);
  t.match(hostile.stdout, /of vX\.Y\.Z>/, "only a release version is echoed as a tag");
  t.notMatch(hostile.stdout, /^::warning::/m, "no input starts a workflow command of its own");
});

t.test("argsFrom: the inputs as cgp-conform's arguments", async (t) => {
  const e = (inputs: Record<string, string>) => inputEnv(inputs);
  t.same(argsFrom(e({ "provider-command": "./p", "allow-stale-baseline": "true", baseline: "b.txt" }), "/r.json").slice(0, 5), [
    "stdio",
    "--baseline",
    "b.txt",
    "--allow-stale-baseline",
    "--report",
  ]);
  t.same(
    argsFrom(e({ "host-command": "./h {url}", "host-listen": "10.1.2.3" }), "/r.json").slice(0, 3),
    ["host", "--listen", "10.1.2.3"],
    "host-listen is --listen",
  );
  t.same(
    argsFrom(e({ "host-command": "./h {provider}", "host-fault-timeout": "60000" }), "/r.json").slice(0, 3),
    ["host", "--fault-timeout", "60000"],
    "host-fault-timeout is --fault-timeout",
  );
  t.same(
    argsFrom(e({ "host-command": "./h {provider}", "host-startup-timeout": "90000", "host-jobs": "1" }), "/r.json").slice(0, 5),
    ["host", "--startup-timeout", "90000", "--jobs", "1"],
    "host-startup-timeout is --startup-timeout, host-jobs is --jobs",
  );
  t.same(
    argsFrom(e({ "provider-command": "./my provider; rm -rf ~" }), "/r.json").slice(-4),
    ["--", "sh", "-c", "./my provider; rm -rf ~"],
    "one argument, verbatim",
  );
});

t.test("the README's copy-paste workflow pins the action by a release's commit SHA, naming the release this checkout is", async (t) => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const workflow = readme.slice(readme.indexOf("## CI"), readme.indexOf("## Testing a host"));
  t.match(workflow, new RegExp(`uses: OWNER/cgp-conform@<40-hex commit SHA of the release> +# v${version.replace(/\./g, "\\.")}\\n`));
  t.notMatch(workflow, /cgp-conform@(main|v\d)/, "neither a branch nor a tag: they can move");
  t.notMatch(workflow, /\bversion:/, "no npm release to name: the action runs the code it holds");
});

t.test("the entry runs from a path with spaces, non-ASCII or a symlink (a runner's), never silently exiting 0", async (t) => {
  symlinkSync(join(RELEASED, ".."), join(tmp, "linked"));
  const linked = join(tmp, "linked", "action");
  for (const dir of [RELEASED, linked]) {
    const r = await action({}, dir);
    t.equal(r.exitCode, 2, dir);
    t.match(r.stdout, /::error::give the action provider-command, url or host-command/);
  }
  const r = await action({ "provider-command": provider(), only: "B*" }, linked);
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(r.outputs, { conformant: "true", failed: "0" }, "the bundle beside the symlinked entry ran");
});

t.test("a checkout without the bundle (a commit of main): an error saying what to pin, exit 2, nothing fetched or run", async (t) => {
  const ran = join(mkdtempSync(join(tmp, "unbuilt-")), "ran");
  const r = await action({ "provider-command": `touch "${ran}"` }, UNBUILT, { GITHUB_ACTION_REPOSITORY: "someone/cgp-conform" });
  t.equal(r.exitCode, 2);
  t.match(r.stdout, /^::error::this checkout of the action holds no dist\/cgp-conform\.mjs, so it is not a release/m);
  t.match(
    r.stdout,
    /Pin the action at a release, by its tag's commit SHA \(uses: someone\/cgp-conform@<the 40-hex commit SHA of vX\.Y\.Z>  # vX\.Y\.Z\) or by the tag/,
  );
  t.match(r.stdout, /or give cgp-conform-path, a cgp-conform built in the workspace/);
  t.match(r.stdout, /Nothing was fetched$/m);
  t.equal(r.stdout.trim().split("\n").length, 1, "one annotation, nothing else: no install ran");
  t.notOk(existsSync(ran), "the provider never started");
  t.same(r.outputs, {});
});

t.test("cgp-conform-path: a local build runs instead of the action's, relative to working-directory", async (t) => {
  const fork = mkdtempSync(join(tmp, "my fork "));
  mkdirSync(join(fork, "dist"));
  copyFileSync(join(RELEASED, "dist", "cgp-conform.mjs"), join(fork, "dist", "cgp-conform.mjs"));
  const r = await action({ "provider-command": provider(), only: "B*", "working-directory": fork, "cgp-conform-path": "dist/cgp-conform.mjs" }, UNBUILT);
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(r.outputs, { conformant: "true", failed: "0" }, "the fork's bundle ran, though the action holds none");
  // A built binary runs as it is, with the suite's arguments; one that writes no report is never a silent pass.
  const binary = join(fork, "dist", "cgp-conform");
  writeFileSync(binary, `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(fork, "args")}"\n`);
  chmodSync(binary, 0o755);
  const b = await action({ "provider-command": "./my provider", "cgp-conform-path": binary }, RELEASED);
  t.equal(b.exitCode, 3, b.stdout);
  t.match(
    readFileSync(join(fork, "args"), "utf8"),
    /^stdio\n--report\njson:.*\n--\nsh\n-c\n\.\/my provider\n$/,
    "the local build ran, not the action's bundle",
  );
  const missing = await action({ "provider-command": provider(), "cgp-conform-path": "dist/nope.mjs" });
  t.equal(missing.exitCode, 2);
  t.match(missing.stdout, /^::error::cgp-conform-path: .*dist\/nope\.mjs is not a file; build it in an earlier step/m);
  const hostile = await action({ "provider-command": provider(), "cgp-conform-path": "dist/nope\n::warning::injected" });
  t.equal(hostile.exitCode, 2);
  t.match(hostile.stdout, /dist\/nope%0A::warning::injected is not a file/, "a path is data in the annotation");
  t.notMatch(hostile.stdout, /^::warning::/m, "no input starts a workflow command of its own");
});

t.test("toolFrom: the local build, else the action's bundle, else an error; the bundle runs with this Node", async (t) => {
  t.same(toolFrom({}, RELEASED, tmp), [process.execPath, join(RELEASED, "dist", "cgp-conform.mjs")]);
  t.throws(() => toolFrom({}, UNBUILT, tmp), /holds no dist\/cgp-conform\.mjs/);
  t.throws(() => toolFrom(inputEnv({ version: "1.2.3" }), RELEASED, tmp), /To run v1\.2\.3, pin the action/, "version refused even with a bundle");
  t.throws(() => toolFrom(inputEnv({ "cgp-conform-path": "." }), RELEASED, tmp), /is not a file/, "a directory is no build");
});
