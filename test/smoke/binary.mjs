// Smoke test of the compiled binary: copied alone into an empty directory
// (no node_modules, no repository), it must run every user-facing command.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
  console.log(`${ok ? "ok" : "not ok"} - ${name}${ok || !detail ? "" : `\n  ${detail.slice(0, 2000).replace(/\n/g, "\n  ")}`}`);
}
const { NO_COLOR: _n, FORCE_COLOR: _f, ...baseEnv } = process.env;
const run = (args, input, env = { NO_COLOR: "1" }) => spawnSync(bin, args, { cwd: dir, input, encoding: "utf8", env: { ...baseEnv, ...env }, timeout: 120_000 });

let r = run(["--version"]);
check("--version prints the package version", r.status === 0 && r.stdout.trim() === version, r.stdout + r.stderr);

r = run(["reference"]);
check("reference: CONFORMANT, exit 0", r.status === 0 && /\nCONFORMANT\n$/.test(r.stdout), r.stdout + r.stderr);
r = run(["reference"], undefined, {});
check(".env beside the binary is not loaded (its FORCE_COLOR=1 has no effect)", r.status === 0 && !/\x1b\[/.test(r.stdout), r.stdout);

r = run(["reference", "--misbehave", "B3-utf16-length", "--json", "--transcript", "t.ndjson"]);
const live = r.stdout ? JSON.parse(r.stdout) : {};
check("reference --misbehave B3-utf16-length: B3 fails, exit 1", r.status === 1 && live.results?.find((x) => x.id === "B3")?.status === "fail", r.stdout + r.stderr);

r = run(["replay", "t.ndjson", "--json"]);
check("replay gives the live verdicts", r.status === 1 && JSON.stringify(JSON.parse(r.stdout).results) === JSON.stringify(live.results), r.stdout + r.stderr);

r = run(["fixture"], '{"type":"handshake","protocol_version":"contextgraph/1.0"}\n{"type":"shutdown"}\n');
check("fixture answers a handshake on stdio", r.status === 0 && JSON.parse(r.stdout.split("\n")[0]).type === "handshake_ack", r.stdout + r.stderr);

r = run(["stdio", "--", bin, "fixture", "--misbehave", "R2-exit-nonzero"]);
check("stdio -- <binary> fixture --misbehave R2-exit-nonzero: exit 1", r.status === 1 && /FAIL\s+R2 /.test(r.stdout), r.stdout + r.stderr);

r = run(["stdio", "--", join(dir, "no-such-provider")]);
check("a provider that cannot start: exit 3", r.status === 3, r.stdout + r.stderr);

r = run(["selftest"]);
check("selftest from the binary", r.status === 0, r.stdout + r.stderr);

console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
