// The two builds of cgp-conform, one definition shared by `npm run build`,
// `npm pack` (prepack) and `npm run release`:
//   - the single executable, dist/cgp-conform (bun build --compile);
//   - the Node bundle, dist/cgp-conform.mjs: one ESM file that inlines every
//     runtime dependency, run by `node` (the package's bin, for npx).
//
//   node scripts/build.mjs            both
//   node scripts/build.mjs binary     the executable only
//   node scripts/build.mjs bundle     the Node bundle only
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUN = fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url));

/**
 * The executable's flags, for the host (`npm run build`) and for every release target alike. --splitting
 * keeps each command's dynamic imports in chunks of their own, Node built-ins included: without it every
 * built-in any command imports (tls and its root certificates, http, child_process…) loads at start.
 * --compile-jit-policy starts the executable with JavaScriptCore's tier-up thresholds START_JIT_POLICY times the
 * normal ones; src/meta/jit.ts says why, and sets the normal policy back once a run's input is large.
 */
export const START_JIT_POLICY = 100;

export const COMPILE_FLAGS = [
  "--compile",
  "--bytecode",
  "--splitting",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  `--compile-jit-policy=${START_JIT_POLICY}`,
];

export const BINARY = "dist/cgp-conform";
export const BUNDLE = "dist/cgp-conform.mjs";

/** Compile the single executable to `outfile` (relative to the repository), for `target` (a bun-<os>-<arch> name) or the host. */
export function buildBinary(outfile = BINARY, target) {
  execFileSync(BUN, ["build", "bin/cgp-conform.ts", ...COMPILE_FLAGS, ...(target ? [`--target=${target}`] : []), "--outfile", outfile], {
    cwd: ROOT,
    stdio: "inherit",
  });
  return outfile;
}

/** Bundle for Node to `outfile` (relative to the repository): scripts/bundle-node.mjs, run by Bun. */
export function buildBundle(outfile = BUNDLE) {
  execFileSync(BUN, ["scripts/bundle-node.mjs", outfile], { cwd: ROOT, stdio: "inherit" });
  return outfile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const what = process.argv.slice(2);
  const known = ["binary", "bundle"];
  const unknown = what.filter((w) => !known.includes(w));
  if (unknown.length > 0) {
    console.error(`build: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`);
    process.exit(2);
  }
  if (what.length === 0 || what.includes("binary")) buildBinary();
  if (what.length === 0 || what.includes("bundle")) buildBundle();
}
