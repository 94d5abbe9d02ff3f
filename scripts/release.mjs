// Cross-compiles the single binary for every supported platform into dist/,
// with the compile flags of `npm run build` (scripts/build.mjs), builds the
// Node bundle, and records their checksums in dist/SHA256SUMS. Bun fetches
// each target's runtime from the npm registry the first time.
//
//   node scripts/release.mjs                    every target
//   node scripts/release.mjs bun-linux-arm64    some: their lines (and the
//                                               bundle's) replace those in
//                                               SHA256SUMS, the others stay
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE, buildBinary, buildBundle, ROOT } from "./build.mjs";

export const TARGETS = [
  ["bun-linux-x64", "cgp-conform-linux-x64"],
  ["bun-linux-arm64", "cgp-conform-linux-arm64"],
  ["bun-darwin-x64", "cgp-conform-darwin-x64"],
  ["bun-darwin-arm64", "cgp-conform-darwin-arm64"],
  ["bun-windows-x64", "cgp-conform-windows-x64.exe"],
];

/** The targets a run builds: all for no argument; an unknown name throws, naming the known ones. */
export function selectTargets(args) {
  const known = TARGETS.map(([t]) => t);
  const unknown = args.filter((a) => !known.includes(a));
  if (unknown.length > 0) throw new Error(`unknown target${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}; known targets: ${known.join(", ")}`);
  return TARGETS.filter(([t]) => args.length === 0 || args.includes(t));
}

const LINE = /^([0-9a-f]{64}) [ *](.+)$/;

/** The entries of a SHA256SUMS text (`<sha256>  <file>` lines), file name to digest; a line of any other shape throws. */
export function parseSums(text) {
  const sums = new Map();
  for (const [i, line] of text.split("\n").entries()) {
    if (line === "") continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is not "<sha256>  <file>": ${JSON.stringify(line.slice(0, 120))}`);
    sums.set(m[2], m[1]);
  }
  return sums;
}

/**
 * SHA256SUMS with `fresh` (file name to digest) merged into `existing` (its
 * text, or "" for none): a fresh file's line replaces its old one, every
 * other line stays; lines sorted by file name.
 */
export function mergeSums(existing, fresh) {
  const sums = parseSums(existing);
  for (const [name, digest] of fresh) sums.set(name, digest);
  const names = [...sums.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((n) => `${sums.get(n)}  ${n}\n`).join("");
}

const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");

function main(args) {
  const sumsPath = `${ROOT}/dist/SHA256SUMS`;
  const existing = existsSync(sumsPath) ? readFileSync(sumsPath, "utf8") : "";
  let targets;
  let kept;
  try {
    targets = selectTargets(args);
    kept = parseSums(existing);
  } catch (err) {
    console.error(`release: ${err.message}; nothing built, dist/SHA256SUMS left as it was`);
    return 2;
  }
  const bundle = basename(BUNDLE);
  const building = new Set([...targets.map(([, name]) => name), bundle]);
  // A line kept from an earlier run must still describe the file beside it, or SHA256SUMS would lie.
  const stale = [...kept].filter(([name, digest]) => !building.has(name) && (!existsSync(`${ROOT}/dist/${name}`) || sha256(`${ROOT}/dist/${name}`) !== digest));
  if (stale.length > 0) {
    const names = stale.map(([n]) => n).join(", ");
    console.error(
      `release: dist/SHA256SUMS lists ${names}, missing from dist/ or changed since; build ${stale.length === 1 ? "its target" : "their targets"} too (or every target). Nothing built, dist/SHA256SUMS left as it was`,
    );
    return 1;
  }
  const fresh = new Map();
  const builds = [...targets.map(([target, name]) => [name, () => buildBinary(`dist/${name}`, target)]), [bundle, () => buildBundle()]];
  for (const [name, build] of builds) {
    try {
      build();
    } catch (err) {
      console.error(`release: building ${name} failed (${err.message.split("\n")[0]}); dist/SHA256SUMS left as it was`);
      return 1;
    }
    fresh.set(name, sha256(`${ROOT}/dist/${name}`));
    console.log(`${name}: sha256 ${fresh.get(name)}`);
  }
  const merged = mergeSums(existing, fresh);
  writeFileSync(`${sumsPath}.tmp`, merged);
  renameSync(`${sumsPath}.tmp`, sumsPath);
  console.log(`dist/SHA256SUMS: ${merged.split("\n").length - 1} files, ${fresh.size} of them built by this run`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
