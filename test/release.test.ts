/**
 * scripts/release.mjs fails before building anything, and leaves SHA256SUMS
 * as it was, on a target it does not know or a SHA256SUMS it cannot keep; a
 * run for some targets merges their lines into the others'. Nothing here
 * cross-compiles: the failures are run from a copy of the scripts in a temp
 * directory (with no bun beside them), the merge is tested as a function.
 */
import { execa } from "execa";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { COMPILE_FLAGS, START_JIT_POLICY } from "../scripts/build.mjs";
import { mergeSums, parseSums, selectTargets, TARGETS } from "../scripts/release.mjs";
import { ROOT } from "./helpers/live.ts";

const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);
const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A copy of the release scripts under a fresh root, its dist/ holding `files`. */
function sandbox(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cgp-release-"));
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "dist"));
  for (const f of ["release.mjs", "build.mjs"]) copyFileSync(join(ROOT, "scripts", f), join(root, "scripts", f));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "dist", name), text);
  return root;
}

const release = (root: string, args: string[]) => execa(process.execPath, [join(root, "scripts", "release.mjs"), ...args], { reject: false, cwd: root });

t.test("an unknown target: exit 2 naming the known targets, nothing built, SHA256SUMS untouched", async (t) => {
  const sums = `${A}  cgp-conform-linux-x64\n`;
  const root = sandbox({ SHA256SUMS: sums });
  const r = await release(root, ["bun-nonexistent"]);
  t.equal(r.exitCode, 2, r.stderr);
  t.match(r.stderr, /unknown target bun-nonexistent/);
  for (const [target] of TARGETS) t.match(r.stderr, target, `names ${target}`);
  t.equal(readFileSync(join(root, "dist", "SHA256SUMS"), "utf8"), sums, "SHA256SUMS as it was");
  t.same(readdirSync(join(root, "dist")), ["SHA256SUMS"], "nothing else written");
});

t.test("an unknown target among known ones builds none of them", async (t) => {
  const root = sandbox({});
  const r = await release(root, ["bun-linux-x64", "bun-linux-x86"]);
  t.equal(r.exitCode, 2, r.stderr);
  t.match(r.stderr, /unknown target bun-linux-x86;/);
  t.notOk(existsSync(join(root, "dist", "SHA256SUMS")), "no SHA256SUMS written");
  t.same(readdirSync(join(root, "dist")), []);
});

t.test("a malformed SHA256SUMS: exit 2 before building, left as it was", async (t) => {
  const sums = `${A}  cgp-conform-linux-x64\nnot a checksum line\n`;
  const root = sandbox({ SHA256SUMS: sums });
  const r = await release(root, ["bun-linux-x64"]);
  t.equal(r.exitCode, 2, r.stderr);
  t.match(r.stderr, /SHA256SUMS line 2 is not/);
  t.equal(readFileSync(join(root, "dist", "SHA256SUMS"), "utf8"), sums);
});

t.test("a kept line whose binary is missing or changed: exit 1 before building, SHA256SUMS left as it was", async (t) => {
  const present = "the darwin binary";
  const sums = `${sha256(present)}  cgp-conform-darwin-arm64\n${B}  cgp-conform-darwin-x64\n${C}  cgp-conform-windows-x64.exe\n`;
  const root = sandbox({ SHA256SUMS: sums, "cgp-conform-darwin-arm64": present, "cgp-conform-darwin-x64": "changed since" });
  const r = await release(root, ["bun-linux-x64"]);
  t.equal(r.exitCode, 1, r.stderr);
  t.match(r.stderr, /lists cgp-conform-darwin-x64, cgp-conform-windows-x64\.exe, missing from dist\/ or changed since/);
  t.notMatch(r.stderr, /cgp-conform-darwin-arm64/, "a line that still matches its file is not stale");
  t.equal(readFileSync(join(root, "dist", "SHA256SUMS"), "utf8"), sums);
  t.notOk(existsSync(join(root, "dist", "cgp-conform-linux-x64")), "nothing built");
});

t.test("a build that fails: exit 1, SHA256SUMS left as it was", async (t) => {
  // The sandbox has no node_modules/.bin/bun: the first build cannot start.
  const sums = `${sha256("x")}  cgp-conform-darwin-x64\n`;
  const root = sandbox({ SHA256SUMS: sums, "cgp-conform-darwin-x64": "x" });
  const r = await release(root, ["bun-linux-x64"]);
  t.equal(r.exitCode, 1, r.stderr);
  t.match(r.stderr, /building cgp-conform-linux-x64 failed/);
  t.equal(readFileSync(join(root, "dist", "SHA256SUMS"), "utf8"), sums);
});

t.test("mergeSums: fresh lines replace their own, every other line stays, sorted by file", async (t) => {
  const existing = `${A}  cgp-conform-windows-x64.exe\n${A}  cgp-conform-linux-x64\n${A}  cgp-conform-darwin-arm64\n`;
  const merged = mergeSums(
    existing,
    new Map([
      ["cgp-conform-linux-x64", B],
      ["cgp-conform.mjs", C],
    ]),
  );
  t.equal(merged, `${A}  cgp-conform-darwin-arm64\n${B}  cgp-conform-linux-x64\n${A}  cgp-conform-windows-x64.exe\n${C}  cgp-conform.mjs\n`);
  t.equal(mergeSums("", new Map([["x", A]])), `${A}  x\n`, "from no SHA256SUMS");
  t.equal(mergeSums(merged, new Map()), merged, "merging nothing changes nothing");
  t.equal(mergeSums(`${A} *bin\n`, new Map()), `${A}  bin\n`, "sha256sum's binary-mode marker is read");
  t.throws(() => mergeSums(`${A}  ok\n${"z".repeat(64)}  bad\n`, new Map()), /line 2 is not/);
  t.throws(() => parseSums("0"), /line 1 is not/, "a 1-byte SHA256SUMS is no SHA256SUMS");
});

t.test("selectTargets: all for none named, the named ones in release order, an unknown one throws naming the known", async (t) => {
  t.same(selectTargets([]), TARGETS);
  t.same(
    selectTargets(["bun-windows-x64", "bun-linux-arm64"]).map(([target]) => target),
    ["bun-linux-arm64", "bun-windows-x64"],
  );
  t.throws(() => selectTargets(["bun-nonexistent"]), new RegExp(`known targets: ${TARGETS.map(([x]) => x).join(", ")}`));
});

t.test("one definition of the compile flags: npm run build and the release both use scripts/build.mjs", async (t) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  t.equal(pkg.scripts.build, "node scripts/build.mjs");
  t.equal(pkg.scripts.prepack, "node scripts/build.mjs bundle");
  t.ok(COMPILE_FLAGS.includes("--bytecode"), "release binaries get --bytecode, as the build's does");
  t.ok(COMPILE_FLAGS.includes("--splitting"), "release binaries load each command's modules when it runs, as the build's do");
  t.ok(
    COMPILE_FLAGS.includes(`--compile-jit-policy=${START_JIT_POLICY}`),
    "release binaries start with the build's JIT policy (src/meta/jit.ts sets the normal one back for large input)",
  );
  const source = readFileSync(join(ROOT, "scripts", "release.mjs"), "utf8");
  t.match(source, /from "\.\/build\.mjs"/);
  t.notMatch(source, /"--(compile|bytecode|format)/, "release.mjs spells no compile flag of its own");
});

t.test("the README's one-line install pins the package's version", async (t) => {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  t.match(readme, `npx cgp-conform@${version} stdio -- ./my-provider`);
  const others = readme.replaceAll(`cgp-conform@${version} `, "").replaceAll(`cgp-conform@v${version}\n`, "");
  t.notMatch(others, /cgp-conform@v?\d/, "no other version is named");
});
