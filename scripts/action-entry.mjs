// The GitHub Action's entry point, run by the runner's own Node (action.yml:
// `using: node24`). Inputs arrive as INPUT_<NAME> environment variables, data
// never interpolated into a shell line. The suite runs as a child: the Node
// bundle this checkout of the action holds (a release tag commits it beside
// this script, scripts/release-tag.mjs), or the local build cgp-conform-path
// names; nothing is installed or fetched. The JSON report becomes the step's
// outputs and the exit code is the suite's.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const env = process.env;
const list = (v) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Every input action.yml declares, each read here through input() (a test holds the two lists equal). */
export const INPUTS = [
  "provider-command",
  "url",
  "host-command",
  "host-timeout",
  "host-fault-timeout",
  "host-startup-timeout",
  "host-jobs",
  "host-listen",
  "bearer-token-env",
  "working-directory",
  "cgp-conform-path",
  "version",
  "strict",
  "only",
  "skip",
  "baseline",
  "allow-stale-baseline",
  "consent",
  "trust-root",
  "report",
  "transcript",
  "timeout",
  "deadline",
];

/** An input's value as the runner passes it: INPUT_ and the name uppercased, spaces as _, hyphens kept; "" when not given. */
export function input(e, name) {
  if (!INPUTS.includes(name)) throw new Error(`action.yml declares no input ${name}`);
  return e[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "";
}

/** The cgp-conform arguments for the action's inputs; a contradiction among them throws, saying which. */
export function argsFrom(e, reportJson) {
  const i = (name) => input(e, name);
  const args = [];
  const given = [i("provider-command") && "provider-command", i("url") && "url", i("host-command") && "host-command"].filter(Boolean);
  if (given.length > 1) throw new Error(`give the action one of provider-command, url and host-command, not ${given.join(" and ")}`);
  if (i("host-command")) {
    // A host run: the inputs that configure a provider run have no meaning here, and are refused rather than ignored.
    const providerOnly = [
      ["bearer-token-env", i("bearer-token-env")],
      ["consent", i("consent")],
      ["trust-root", i("trust-root")],
      ["deadline", i("deadline")],
    ].filter(([, v]) => v);
    if (providerOnly.length > 0) throw new Error(`${providerOnly.map(([k]) => k).join(", ")}: for a provider run; host-command runs a host`);
    args.push("host");
    if (i("host-timeout")) args.push("--timeout", i("host-timeout"));
    if (i("host-listen")) args.push("--listen", i("host-listen"));
    if (i("host-fault-timeout")) args.push("--fault-timeout", i("host-fault-timeout"));
    if (i("host-startup-timeout")) args.push("--startup-timeout", i("host-startup-timeout"));
    if (i("host-jobs")) args.push("--jobs", i("host-jobs"));
  } else if (i("url")) {
    args.push("http", i("url"));
    if (i("bearer-token-env")) args.push("--bearer-token-env", i("bearer-token-env"));
  } else if (i("provider-command")) {
    args.push("stdio");
  } else {
    throw new Error("give the action provider-command, url or host-command");
  }
  if (!i("host-command")) {
    if (i("timeout")) args.push("--timeout", i("timeout"));
    if (i("deadline")) args.push("--deadline", i("deadline"));
  }
  if (i("strict") === "true") args.push("--strict");
  for (const p of list(i("only"))) args.push("--only", p);
  for (const p of list(i("skip"))) args.push("--skip", p);
  if (i("baseline")) args.push("--baseline", i("baseline"));
  if (i("allow-stale-baseline") === "true") args.push("--allow-stale-baseline");
  for (const s of list(i("consent"))) args.push("--consent", s);
  for (const d of list(i("trust-root"))) args.push("--trust-root", d);
  if (i("transcript")) args.push("--transcript", i("transcript"));
  args.push("--report", `json:${reportJson}`);
  for (const r of list(i("report"))) args.push("--report", r);
  // The host command runs under sh -c with its placeholders ({provider}, {url}) filled in, shell-quoted.
  if (i("host-command")) args.push("--", "sh", "-c", i("host-command"));
  else if (!i("url")) args.push("--", "sh", "-c", i("provider-command"));
  return args;
}

const RELEASE = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The action's repository as the runner names it, for the messages that say what to pin. */
const repository = (e) => e.GITHUB_ACTION_REPOSITORY || "OWNER/cgp-conform";

/**
 * The command that runs cgp-conform: the local build cgp-conform-path names
 * (relative to `cwd`), else the Node bundle of this checkout of the action
 * (`actionDir`/dist/cgp-conform.mjs), which only a release tag commits. A
 * checkout without one, or the removed version input, is a usage error that
 * says what to pin instead: nothing is ever fetched.
 */
export function toolFrom(e, actionDir, cwd) {
  const version = input(e, "version");
  if (version) {
    const tag = RELEASE.test(version) ? `v${version}` : "vX.Y.Z";
    throw new Error(
      `version: the action installs nothing, it runs the cgp-conform its own checkout holds. To run ${tag}, pin the action at that release by its commit SHA (uses: ${repository(e)}@<the 40-hex commit SHA of ${tag}>  # ${tag}), and drop version`,
    );
  }
  const local = input(e, "cgp-conform-path");
  if (local) {
    const path = resolve(cwd, local);
    let file = false;
    try {
      file = statSync(path).isFile();
    } catch {
      // missing: said below
    }
    if (!file)
      throw new Error(
        `cgp-conform-path: ${path} is not a file; build it in an earlier step (npm ci && npm run build makes dist/cgp-conform and dist/cgp-conform.mjs)`,
      );
    // The Node bundle runs with the runner's Node; anything else is a built binary, run as it is.
    return /\.[cm]?js$/.test(path) ? [process.execPath, path] : [path];
  }
  const bundle = join(actionDir, "dist", "cgp-conform.mjs");
  if (!existsSync(bundle))
    throw new Error(
      "this checkout of the action holds no dist/cgp-conform.mjs, so it is not a release: only a release tag commits the bundle, a branch such as main holds no built files. " +
        `Pin the action at a release, by its tag's commit SHA (uses: ${repository(e)}@<the 40-hex commit SHA of vX.Y.Z>  # vX.Y.Z) or by the tag; ` +
        "or give cgp-conform-path, a cgp-conform built in the workspace (e.g. dist/cgp-conform.mjs after npm ci && npm run build). Nothing was fetched",
    );
  return [process.execPath, bundle];
}

/** A workflow command's message: %, CR and LF escaped, so no input can end the annotation and start a command of its own. */
const escapeData = (s) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const error = (message) => console.log(`::error::${escapeData(message)}`);

function main() {
  const reportJson = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), "cgp-conform-")), "report.json");
  // A JavaScript action starts in the workspace; working-directory is relative to it.
  const cwd = resolve(env.GITHUB_WORKSPACE || process.cwd(), input(env, "working-directory") || ".");
  let args;
  let command;
  try {
    args = argsFrom(env, reportJson);
    if (!existsSync(cwd)) throw new Error(`working-directory ${cwd} does not exist`);
    command = toolFrom(env, fileURLToPath(new URL("..", import.meta.url)), cwd);
  } catch (e) {
    error(e.message);
    return 2;
  }
  const [bin, ...prefix] = command;
  const r = spawnSync(bin, [...prefix, ...args], { stdio: "inherit", cwd, env: { ...env, GITHUB_ACTIONS: env.GITHUB_ACTIONS ?? "true" } });
  if (r.error) {
    error(`could not start ${bin}: ${r.error.message}`);
    return 3;
  }
  const code = r.status ?? 3;
  let report;
  try {
    report = JSON.parse(readFileSync(reportJson, "utf8"));
  } catch {
    return code === 0 ? 3 : code;
  }
  if (env.GITHUB_OUTPUT) {
    const s = report.summary;
    appendFileSync(
      env.GITHUB_OUTPUT,
      [
        `conformant=${report.conformant}`,
        `could-not-run=${report.could_not_run}`,
        `passed=${s.pass}`,
        `failed=${s.fail}`,
        `warned=${s.warn}`,
        `skipped=${s.skip}`,
        `report-json=${reportJson}`,
        "",
      ].join("\n"),
    );
  }
  return code;
}

// Run when this file is the script node was given (not when a test imports it), however its path is spelled:
// a URL is percent-encoded and a runner's path may hold spaces, non-ASCII or symlinks.
function invoked() {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
if (invoked()) process.exit(main());
