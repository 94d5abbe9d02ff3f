// Smoke test of the compiled binary: copied alone into an empty directory
// (no node_modules, no repository), it must run every user-facing command.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "cgp-smoke-"));
const bin = join(dir, process.platform === "win32" ? "cgp-conform.exe" : "cgp-conform");
copyFileSync(new URL("../../dist/cgp-conform", import.meta.url), bin);
execFileSync("chmod", ["+x", bin]);
// A compiled binary must not load .env or bunfig.toml from where it runs.
writeFileSync(join(dir, ".env"), "NO_COLOR=\nFORCE_COLOR=1\n");

const version = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  // A passing case prints nothing unless CGP_VERBOSE=1: the log holds the failures and the closing count.
  if (ok && process.env.CGP_VERBOSE !== "1") return;
  console.log(`${ok ? "ok" : "not ok"} - ${name}${ok || !detail ? "" : `\n  ${detail.slice(0, 2000).replace(/\n/g, "\n  ")}`}`);
}
const { NO_COLOR: _n, FORCE_COLOR: _f, ...baseEnv } = process.env;
const run = (args, input, env = { NO_COLOR: "1" }) =>
  spawnSync(bin, args, { cwd: dir, input, encoding: "utf8", env: { ...baseEnv, ...env }, timeout: 600_000 });

let r = run(["--version"]);
check("--version prints the package version", r.status === 0 && r.stdout.trim() === version, r.stdout + r.stderr);

r = run(["reference"]);
check("reference: CONFORMANT, exit 0", r.status === 0 && /\nCONFORMANT\n$/.test(r.stdout), r.stdout + r.stderr);
r = run(["reference"], undefined, {});
check(".env beside the binary is not loaded (its FORCE_COLOR=1 has no effect)", r.status === 0 && !/\x1b\[/.test(r.stdout), r.stdout);

r = run(["reference", "--misbehave", "B3-utf16-length", "--json", "--transcript", "t.ndjson"]);
const live = r.stdout ? JSON.parse(r.stdout) : {};
check(
  "reference --misbehave B3-utf16-length: B3 fails, exit 1",
  r.status === 1 && live.results?.find((x) => x.id === "B3")?.status === "fail",
  r.stdout + r.stderr,
);

r = run(["replay", "t.ndjson", "--json"]);
check("replay gives the live verdicts", r.status === 1 && JSON.stringify(JSON.parse(r.stdout).results) === JSON.stringify(live.results), r.stdout + r.stderr);

r = run(["fixture"], '{"type":"handshake","protocol_version":"contextgraph/1.0"}\n{"type":"shutdown"}\n');
check("fixture answers a handshake on stdio", r.status === 0 && JSON.parse(r.stdout.split("\n")[0]).type === "handshake_ack", r.stdout + r.stderr);

r = run(["stdio", "--", bin, "fixture", "--misbehave", "R2-exit-nonzero"]);
check("stdio -- <binary> fixture --misbehave R2-exit-nonzero: exit 1", r.status === 1 && /FAIL\s+R2 /.test(r.stdout), r.stdout + r.stderr);

r = run(["stdio", "--", join(dir, "no-such-provider")]);
check("a provider that cannot start: exit 3", r.status === 3, r.stdout + r.stderr);

r = run(["list", "--json"]);
check(
  "list --json: every check with its witnesses",
  r.status === 0 && JSON.parse(r.stdout).every((c) => c.witnesses.length > 0),
  r.stdout.slice(0, 400) + r.stderr,
);

r = run(["explain", "B3"]);
check("explain B3 quotes the spec sentence", r.status === 0 && r.stdout.includes("ceil(utf8_byte_length(content) / 4)"), r.stdout + r.stderr);

// Gating policy through the binary: --only, --baseline, --strict.
writeFileSync(join(dir, "baseline.txt"), "B3  # known\n");
r = run(["reference", "--misbehave", "B3-floor", "--only", "B*", "--baseline", "baseline.txt"]);
check(
  "--only B* --baseline listing B3: a known failure is green (exit 0)",
  r.status === 0 && /baseline green: every failure is in the baseline \(exit 0\)$/.test(r.stdout.trimEnd()) && /^3 checks:/m.test(r.stdout),
  r.stdout.slice(-600) + r.stderr,
);
r = run(["reference", "--misbehave", "B1-ignore-max-tokens", "--only", "B*", "--baseline", "baseline.txt"]);
check("a failure the baseline does not list is red (exit 1)", r.status === 1 && /not in the baseline: B1/.test(r.stdout), r.stdout.slice(-600) + r.stderr);
const proxy = [process.execPath, fileURLToPath(new URL("../fakes/r1-internal-proxy.mjs", import.meta.url)), bin, "fixture"];
r = run(["stdio", "--only", "R1", "--", ...proxy]);
check("a SHOULD shortfall warns and passes (exit 0)", r.status === 0 && /WARN\s+R1/.test(r.stdout), r.stdout.slice(-600) + r.stderr);
r = run(["stdio", "--only", "R1", "--strict", "--", ...proxy]);
check("--strict turns it into a failure (exit 1)", r.status === 1 && /FAIL\s+R1/.test(r.stdout), r.stdout.slice(-600) + r.stderr);

// The HTTP binding, served and tested by the binary alone.
const server = spawn(bin, ["fixture", "--attest", "--http", "0"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
const url = await new Promise((resolve) => server.stdout.once("data", (c) => resolve(c.toString().trim())));
r = run(["http", url, "--report", "junit:report.xml"]);
server.kill();
check(
  "http: the reference provider over HTTP is conformant, and a JUnit report is written",
  r.status === 0 && /<testsuites/.test(readFileSync(join(dir, "report.xml"), "utf8")),
  r.stdout.slice(-600) + r.stderr,
);

// The selftest, from the binary: every mode over stdio, HTTP and HTTPS.
r = run(["selftest"]);
check(
  "selftest from the binary",
  r.status === 0,
  r.stdout
    .split("\n")
    .filter((l) => !l.startsWith("ok"))
    .join("\n") + r.stderr,
);
console.log(r.stdout.trim().split("\n").pop());

console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
