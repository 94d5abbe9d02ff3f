import { execa } from "execa";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { CGP, ROOT } from "./helpers/live.ts";

const ENTRY = join(ROOT, "scripts", "action-entry.mjs");
const tmp = mkdtempSync(join(tmpdir(), "cgp-action-"));

/** Run the action's entry script as the runner would: inputs in env, outputs and summary in files. */
async function action(inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmp, "run-"));
  const output = join(dir, "output");
  const summary = join(dir, "summary.md");
  writeFileSync(output, "");
  const r = await execa(process.execPath, [ENTRY], {
    reject: false,
    cwd: ROOT,
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: dir,
      NO_COLOR: "1",
      CGP_CONFORM_COMMAND: JSON.stringify(CGP),
      ...inputs,
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
  const r = await action({ CGP_PROVIDER_COMMAND: provider(), CGP_REPORT: `junit:${junit}`, CGP_TIMEOUT: "5000" });
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(r.outputs, { conformant: "true", failed: "0", warned: "0" });
  t.ok(Number(r.outputs.passed) > 30);
  t.match(JSON.parse(readFileSync(r.outputs["report-json"]!, "utf8")), { conformant: true });
  t.match(r.summary, /cgp-conform: CONFORMANT/);
  t.match(readFileSync(junit, "utf8"), /<testsuites/);
  t.match(r.stdout, /^::notice title=cgp-conform/m, "annotations reach the log");
});

t.test("a failing provider: exit 1 and failed=1; a baseline listing the failure makes it green", async (t) => {
  const bad = await action({ CGP_PROVIDER_COMMAND: provider("B3-floor") });
  t.equal(bad.exitCode, 1);
  t.match(bad.outputs, { conformant: "false", failed: "1" });
  t.match(bad.stdout, /^::error title=B3%3A/m);
  const baseline = join(tmp, "baseline.txt");
  writeFileSync(baseline, "B3  # tokenizer fix pending\n");
  const known = await action({ CGP_PROVIDER_COMMAND: provider("B3-floor"), CGP_BASELINE: baseline, CGP_ONLY: "B*,F1" });
  t.equal(known.exitCode, 0, known.stdout.slice(-600));
  t.match(known.outputs, { conformant: "false", failed: "1" });
});

t.test("inputs are data, never shell: a hostile input is passed verbatim and refused as a pattern", async (t) => {
  const r = await action({ CGP_PROVIDER_COMMAND: provider(), CGP_ONLY: "$(touch pwned);H1" });
  t.equal(r.exitCode, 2);
  t.throws(() => readFileSync(join(ROOT, "pwned")), "nothing ran");
});

t.test("none of provider-command, url and host-command: an error annotation, exit 2", async (t) => {
  const r = await action({});
  t.equal(r.exitCode, 2);
  t.match(r.stdout, /::error::give the action provider-command, url or host-command/);
});

t.test("action.yml passes every input through env:, never interpolated into a run line", async (t) => {
  const yml = readFileSync(join(ROOT, "action.yml"), "utf8");
  const inputs = [...yml.slice(yml.indexOf("inputs:"), yml.indexOf("outputs:")).matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]!);
  t.ok(inputs.length >= 8);
  const runLines = yml.split("\n").filter((l, i, all) => /^\s+run:/.test(l) || (i > 0 && /^\s+run: \|/.test(all[i - 1]!)));
  for (const l of yml.split("\n"))
    if (/\$\{\{\s*inputs\./.test(l)) t.match(l, /^\s+CGP_[A-Z_]+: \$\{\{ inputs\.[a-z-]+ \}\}$/, `only env: lines read inputs: ${l.trim()}`);
  t.notOk(
    runLines.some((l) => l.includes("${{")),
    "no run: line interpolates an expression",
  );
  for (const i of inputs) t.match(yml, new RegExp(`\\$\\{\\{ inputs\\.${i} \\}\\}`), `input ${i} is passed on`);
  for (const o of ["conformant", "could-not-run", "passed", "failed", "warned", "skipped", "report-json"])
    t.match(yml, new RegExp(`^  ${o}:$`, "m"), `output ${o}`);
  t.notMatch(yml, /npm ci|npm run build/, "no build of the action's own source on every job");
});

t.test("a typo in provider-command: could not start, exit 3, could-not-run=true", async (t) => {
  const r = await action({ CGP_PROVIDER_COMMAND: "./no-such-provider --stdio" });
  t.equal(r.exitCode, 3);
  t.match(r.outputs, { conformant: "false", "could-not-run": "true" });
  t.match(r.stdout, /COULD NOT RUN: the provider never started: it exited with code 127/);
});

t.test("url together with provider-command is an error, not a silent choice", async (t) => {
  const r = await action({ CGP_PROVIDER_COMMAND: provider(), CGP_URL: "https://example.com/cgp" });
  t.equal(r.exitCode, 2);
  t.match(r.stdout, /::error::give the action one of provider-command, url and host-command, not provider-command and url/);
});

t.test("host-command: the bundled reference host through every scenario, conformant; provider-only inputs refused", async (t) => {
  const host = `${CGP.map((w) => `"${w}"`).join(" ")} reference-host --timeout 1000 -- {provider}`;
  const r = await action({ CGP_HOST_COMMAND: host, CGP_HOST_TIMEOUT: "5000" });
  t.equal(r.exitCode, 0, r.stdout.slice(-2000));
  t.match(r.outputs, { conformant: "true", "could-not-run": "false" });
  t.match(r.summary, /host:H4/);
  const both = await action({ CGP_HOST_COMMAND: host, CGP_URL: "https://example.com/cgp" });
  t.equal(both.exitCode, 2);
  t.match(both.stdout, /::error::give the action one of provider-command, url and host-command, not url and host-command/);
  const consent = await action({ CGP_HOST_COMMAND: host, CGP_CONSENT: "all" });
  t.equal(consent.exitCode, 2);
  t.match(consent.stdout, /::error::consent: for a provider run; host-command runs a host/);
});

t.test("working-directory, transcript, trust-root, deadline and skipped: passed on and reported", async (t) => {
  const dir = mkdtempSync(join(tmp, "wd-"));
  const r = await action({
    CGP_PROVIDER_COMMAND: provider(),
    CGP_WORKING_DIRECTORY: dir,
    CGP_TRANSCRIPT: "run.ndjson",
    CGP_TRUST_ROOT: `${dir},${tmp}`,
    CGP_DEADLINE: "120000",
  });
  t.equal(r.exitCode, 0, r.stdout.slice(-600));
  t.match(readFileSync(join(dir, "run.ndjson"), "utf8"), /^\{"cgp_conform_transcript":1/, "the transcript lands in the working directory");
  t.match(r.outputs, { "could-not-run": "false" });
  t.ok(Number(r.outputs.skipped) >= 0 && r.outputs.skipped !== undefined, `skipped=${r.outputs.skipped}`);
  const missing = await action({ CGP_PROVIDER_COMMAND: provider(), CGP_WORKING_DIRECTORY: join(tmp, "nope") });
  t.equal(missing.exitCode, 2);
});

t.test("the release it runs: pinned by the input, else the action's own version; only a version is accepted", async (t) => {
  const { argsFrom, versionFrom } = await import("../scripts/action-entry.mjs");
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  t.equal(versionFrom({ CGP_ACTION_PATH: ROOT }), pkg.version);
  t.equal(versionFrom({ CGP_ACTION_PATH: ROOT, CGP_VERSION: "1.2.3" }), "1.2.3");
  t.throws(() => versionFrom({ CGP_ACTION_PATH: ROOT, CGP_VERSION: "--registry=https://evil.example" }), /not a release version/);
  t.same(argsFrom({ CGP_PROVIDER_COMMAND: "./p", CGP_ALLOW_STALE_BASELINE: "true", CGP_BASELINE: "b.txt" }, "/r.json").slice(0, 5), [
    "stdio",
    "--baseline",
    "b.txt",
    "--allow-stale-baseline",
    "--report",
  ]);
  t.same(
    argsFrom({ CGP_HOST_COMMAND: "./h {url}", CGP_HOST_LISTEN: "10.1.2.3" }, "/r.json").slice(0, 3),
    ["host", "--listen", "10.1.2.3"],
    "host-listen is --listen",
  );
  t.same(
    argsFrom({ CGP_HOST_COMMAND: "./h {provider}", CGP_HOST_FAULT_TIMEOUT: "60000" }, "/r.json").slice(0, 3),
    ["host", "--fault-timeout", "60000"],
    "host-fault-timeout is --fault-timeout",
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
  const { copyFileSync, mkdirSync, symlinkSync } = await import("node:fs");
  const dir = join(tmp, "a runner's dir é");
  mkdirSync(dir, { recursive: true });
  copyFileSync(ENTRY, join(dir, "action-entry.mjs"));
  symlinkSync(dir, join(tmp, "linked"));
  for (const script of [join(dir, "action-entry.mjs"), join(tmp, "linked", "action-entry.mjs")]) {
    const r = await execa(process.execPath, [script], { reject: false, env: { RUNNER_TEMP: tmp } });
    t.equal(r.exitCode, 2, script);
    t.match(r.stdout, /::error::give the action provider-command, url or host-command/);
  }
});
