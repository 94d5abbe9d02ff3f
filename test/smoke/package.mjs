// Smoke test of the npm package as users get it: `npm pack`, installed from
// the tarball into an empty directory, run with nothing but node on PATH (no
// bun, no repository node_modules), from that directory.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const tmp = mkdtempSync(join(tmpdir(), "cgp-package-"));
const packDir = join(tmp, "pack");
const app = join(tmp, "app");
mkdirSync(packDir);
mkdirSync(app);
// A package.json of its own, so npm installs here and not into a parent directory's project.
writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "cgp-conform-smoke", private: true })}\n`);

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  // A passing case prints nothing unless CGP_VERBOSE=1: the log holds the failures and the closing count.
  if (ok && process.env.CGP_VERBOSE !== "1") return;
  console.log(`${ok ? "ok" : "not ok"} - ${name}${ok || !detail ? "" : `\n  ${String(detail).slice(0, 2000).replace(/\n/g, "\n  ")}`}`);
}
function done() {
  rmSync(tmp, { recursive: true, force: true });
  console.log(`smoke: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// The npm that runs this script (`npm test`), else the one on PATH.
const npm = (args, cwd) => {
  const [file, ...pre] = process.env.npm_execpath?.endsWith(".js") ? [process.execPath, process.env.npm_execpath] : ["npm"];
  return spawnSync(file, [...pre, ...args], { cwd, encoding: "utf8", timeout: 300_000 });
};

// npm pack runs prepack: the Node bundle is built from the sources as they are.
let r = npm(["pack", "--json", "--pack-destination", packDir], root);
let packed;
try {
  // The prepack script writes to stdout too: the report is the JSON array npm prints on lines of its own.
  packed = JSON.parse(/^\[$[\s\S]*?^\]$/m.exec(r.stdout)?.[0] ?? "")[0];
} catch {
  packed = undefined;
}
check("npm pack makes a tarball", r.status === 0 && packed !== undefined, r.stdout + r.stderr);
if (!packed) done();

const files = packed.files.map((f) => f.path).sort();
const unexpected = files.filter((f) => !/^(package\.json|README\.md|dist\/cgp-conform\.mjs|(LICEN[CS]E|LICENCE|COPYING|NOTICE)(\.[a-z]+)?)$/i.test(f));
check(
  "the tarball holds the Node bundle, package.json and README only (and licence files)",
  unexpected.length === 0 && files.includes("dist/cgp-conform.mjs") && files.includes("README.md"),
  `files: ${files.join(", ")}`,
);

const tarball = join(packDir, packed.filename);
// --offline: the package has no runtime dependencies, so installing it needs no registry.
r = npm(["install", "--no-audit", "--no-fund", "--offline", tarball], app);
check("npm install <tarball> into an empty directory, offline", r.status === 0, r.stdout + r.stderr);

const installed = join(app, "node_modules", "cgp-conform");
let manifest = {};
try {
  manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
} catch {}
const modules = (() => {
  try {
    return readdirSync(join(app, "node_modules")).filter((d) => !d.startsWith("."));
  } catch {
    return [];
  }
})();
check(
  "the installed package has no runtime dependencies: cgp-conform is all that is installed",
  Object.keys(manifest.dependencies ?? {}).length === 0 && modules.length === 1 && modules[0] === "cgp-conform",
  `dependencies: ${JSON.stringify(manifest.dependencies)}; node_modules: ${modules.join(", ")}`,
);

const bin = join(app, "node_modules", ".bin", process.platform === "win32" ? "cgp-conform.cmd" : "cgp-conform");
let shebang = "";
try {
  shebang = readFileSync(realpathSync(bin), "utf8").split("\n")[0];
} catch {}
check("node_modules/.bin/cgp-conform is the bundle, run by node", shebang === "#!/usr/bin/env node", shebang);

// Nothing but node on PATH, and none of the repository's environment (npm's, NODE_OPTIONS).
const env = { PATH: dirname(process.execPath), HOME: tmp, NO_COLOR: "1", ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}) };
const run = (args) => spawnSync(bin, args, { cwd: app, env, encoding: "utf8", timeout: 120_000 });

r = run(["--version"]);
check(`--version prints package.json's version (${pkg.version})`, r.status === 0 && r.stdout.trim() === pkg.version, r.stdout + r.stderr);

r = run(["reference"]);
check("reference: CONFORMANT, exit 0", r.status === 0 && /\nCONFORMANT\n$/.test(r.stdout), r.stdout.slice(-1000) + r.stderr);

// The provider spawned as a copy of this cgp-conform: the bundle finds itself where npm installed it.
r = run(["reference", "--spawn", "--only", "H1,R2"]);
check(
  "reference --spawn: the bundle runs itself as the provider",
  r.status === 0 && /\nCONFORMANT\n$/.test(r.stdout) && r.stdout.includes(realpathSync(join(installed, "dist", "cgp-conform.mjs"))),
  r.stdout.slice(-1000) + r.stderr,
);

// A JSON baseline: its parser is bundled as ESM, like every dependency.
writeFileSync(join(app, "baseline.json"), '{ "expect_fail": { "B3": "known" } }\n');
r = run(["reference", "--misbehave", "B3-floor", "--only", "B3", "--baseline", "baseline.json"]);
check("a JSON baseline is read: a known failure is green (exit 0)", r.status === 0 && /baseline/.test(r.stdout), r.stdout.slice(-1000) + r.stderr);

done();
