// The GitHub Action's entry point. Inputs arrive as environment variables
// (never interpolated into a shell line); the suite runs as a child, a pinned
// release of cgp-conform from the npm registry; the JSON report becomes the
// step's outputs and the exit code is the suite's.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const env = process.env;
const list = (v) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function argsFrom(e, reportJson) {
  const args = [];
  const given = [e.CGP_PROVIDER_COMMAND && "provider-command", e.CGP_URL && "url", e.CGP_HOST_COMMAND && "host-command"].filter(Boolean);
  if (given.length > 1) throw new Error(`give the action one of provider-command, url and host-command, not ${given.join(" and ")}`);
  if (e.CGP_HOST_COMMAND) {
    // A host run: the inputs that configure a provider run have no meaning here, and are refused rather than ignored.
    const providerOnly = [
      ["bearer-token-env", e.CGP_BEARER_TOKEN_ENV],
      ["consent", e.CGP_CONSENT],
      ["trust-root", e.CGP_TRUST_ROOT],
      ["deadline", e.CGP_DEADLINE],
    ].filter(([, v]) => v);
    if (providerOnly.length > 0) throw new Error(`${providerOnly.map(([k]) => k).join(", ")}: for a provider run; host-command runs a host`);
    args.push("host");
    if (e.CGP_HOST_TIMEOUT) args.push("--timeout", e.CGP_HOST_TIMEOUT);
    if (e.CGP_HOST_LISTEN) args.push("--listen", e.CGP_HOST_LISTEN);
    if (e.CGP_HOST_FAULT_TIMEOUT) args.push("--fault-timeout", e.CGP_HOST_FAULT_TIMEOUT);
  } else if (e.CGP_URL) {
    args.push("http", e.CGP_URL);
    if (e.CGP_BEARER_TOKEN_ENV) args.push("--bearer-token-env", e.CGP_BEARER_TOKEN_ENV);
  } else if (e.CGP_PROVIDER_COMMAND) {
    args.push("stdio");
  } else {
    throw new Error("give the action provider-command, url or host-command");
  }
  if (!e.CGP_HOST_COMMAND) {
    if (e.CGP_TIMEOUT) args.push("--timeout", e.CGP_TIMEOUT);
    if (e.CGP_DEADLINE) args.push("--deadline", e.CGP_DEADLINE);
  }
  if (e.CGP_STRICT === "true") args.push("--strict");
  for (const p of list(e.CGP_ONLY)) args.push("--only", p);
  for (const p of list(e.CGP_SKIP)) args.push("--skip", p);
  if (e.CGP_BASELINE) args.push("--baseline", e.CGP_BASELINE);
  if (e.CGP_ALLOW_STALE_BASELINE === "true") args.push("--allow-stale-baseline");
  for (const s of list(e.CGP_CONSENT)) args.push("--consent", s);
  for (const d of list(e.CGP_TRUST_ROOT)) args.push("--trust-root", d);
  if (e.CGP_TRANSCRIPT) args.push("--transcript", e.CGP_TRANSCRIPT);
  args.push("--report", `json:${reportJson}`);
  for (const r of list(e.CGP_REPORT)) args.push("--report", r);
  // The host command runs under sh -c with its placeholders ({provider}, {url}) filled in, shell-quoted.
  if (e.CGP_HOST_COMMAND) args.push("--", "sh", "-c", e.CGP_HOST_COMMAND);
  else if (!e.CGP_URL) args.push("--", "sh", "-c", e.CGP_PROVIDER_COMMAND);
  return args;
}

class UsageError extends Error {}

/** The release to run: the input, or the version this action's own checkout is. Only a version, never an npm argument. */
export function versionFrom(e) {
  const v = e.CGP_VERSION || JSON.parse(readFileSync(join(e.CGP_ACTION_PATH ?? ".", "package.json"), "utf8")).version;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)) throw new UsageError(`version ${JSON.stringify(v)} is not a release version such as 0.1.0`);
  return v;
}

/** The command that runs cgp-conform: a test's override, or the pinned release installed from the npm registry (once per runner). */
function tool() {
  if (env.CGP_CONFORM_COMMAND) return JSON.parse(env.CGP_CONFORM_COMMAND);
  const version = versionFrom(env);
  const dir = join(env.RUNNER_TEMP || tmpdir(), `cgp-conform-${version}`);
  const bundle = join(dir, "node_modules", "cgp-conform", "dist", "cgp-conform.mjs");
  if (!existsSync(bundle)) {
    mkdirSync(dir, { recursive: true });
    const npm = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `cgp-conform@${version}`], {
      stdio: "inherit",
      timeout: 10 * 60_000,
    });
    if (npm.status !== 0) throw new Error(`could not install cgp-conform@${version} from the npm registry (npm exited ${npm.status})`);
  }
  return [process.execPath, bundle];
}

function main() {
  const reportJson = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), "cgp-conform-")), "report.json");
  let args;
  let command;
  try {
    args = argsFrom(env, reportJson);
    command = tool();
  } catch (e) {
    console.log(`::error::${e.message}`);
    // A bad input is a usage error; a release that could not be installed, a run that could not be made.
    return args && !(e instanceof UsageError) ? 3 : 2;
  }
  const cwd = env.CGP_WORKING_DIRECTORY ? resolve(env.CGP_WORKING_DIRECTORY) : process.cwd();
  if (!existsSync(cwd)) {
    console.log(`::error::working-directory ${cwd} does not exist`);
    return 2;
  }
  const [bin, ...prefix] = command;
  const r = spawnSync(bin, [...prefix, ...args], { stdio: "inherit", cwd, env: { ...env, GITHUB_ACTIONS: env.GITHUB_ACTIONS ?? "true" } });
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
