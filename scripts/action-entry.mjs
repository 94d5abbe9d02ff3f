// The GitHub Action's entry point. Inputs arrive as environment variables
// (never interpolated into a shell line); the suite runs as a child; the JSON
// report becomes the step's outputs and the exit code is the suite's.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const env = process.env;
const list = (v) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function argsFrom(e, reportJson) {
  const args = [];
  if (e.CGP_URL) {
    args.push("http", e.CGP_URL);
    if (e.CGP_BEARER_TOKEN_ENV) args.push("--bearer-token-env", e.CGP_BEARER_TOKEN_ENV);
  } else if (e.CGP_PROVIDER_COMMAND) {
    args.push("stdio");
  } else {
    throw new Error("give the action either provider-command or url");
  }
  if (e.CGP_TIMEOUT) args.push("--timeout", e.CGP_TIMEOUT);
  if (e.CGP_STRICT === "true") args.push("--strict");
  for (const p of list(e.CGP_ONLY)) args.push("--only", p);
  for (const p of list(e.CGP_SKIP)) args.push("--skip", p);
  if (e.CGP_BASELINE) args.push("--baseline", e.CGP_BASELINE);
  for (const s of list(e.CGP_CONSENT)) args.push("--consent", s);
  args.push("--report", `json:${reportJson}`);
  for (const r of list(e.CGP_REPORT)) args.push("--report", r);
  if (!e.CGP_URL) args.push("--", "sh", "-c", e.CGP_PROVIDER_COMMAND);
  return args;
}

function main() {
  const reportJson = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), "cgp-conform-")), "report.json");
  let args;
  try {
    args = argsFrom(env, reportJson);
  } catch (e) {
    console.log(`::error::${e.message}`);
    return 2;
  }
  const [bin, ...prefix] = env.CGP_CONFORM_COMMAND ? JSON.parse(env.CGP_CONFORM_COMMAND) : [env.CGP_CONFORM];
  const r = spawnSync(bin, [...prefix, ...args], { stdio: "inherit", env: { ...env, GITHUB_ACTIONS: env.GITHUB_ACTIONS ?? "true" } });
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
      [`conformant=${report.conformant}`, `passed=${s.pass}`, `failed=${s.fail}`, `warned=${s.warn}`, `report-json=${reportJson}`, ""].join("\n"),
    );
  }
  return code;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
