// Run by Bun (scripts/build.mjs does): bundles the CLI for Node into one ESM
// file that inlines every runtime dependency, the package's bin.
//
//   bun scripts/bundle-node.mjs dist/cgp-conform.mjs
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = process.argv[2] ?? "dist/cgp-conform.mjs";

// For a package without "exports", a build for Node takes "main" before
// "module" (a build for Bun, the binary's, takes "module"). jsonc-parser's
// "main" is a UMD module that require()s its parts through a parameter, which
// no bundler can follow: the bundle would fail at run time on the first JSON
// baseline. Its "module" build is plain ESM, as in the binary.
const ESM_BUILDS = { "jsonc-parser": "jsonc-parser/lib/esm/main.js" };
const require = createRequire(resolve(root, "package.json"));
const esmFirst = {
  name: "esm-builds",
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(ESM_BUILDS).join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: require.resolve(ESM_BUILDS[args.path]) }));
  },
};

const result = await Bun.build({
  entrypoints: [resolve(root, "bin/cgp-conform.ts")],
  target: "node",
  format: "esm",
  plugins: [esmFirst],
  metafile: true,
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
// Any other UMD module would break the same way: fail here, not in a user's run.
const umd = Object.keys(result.metafile.inputs).filter((p) => /\/umd\//.test(p));
if (umd.length > 0) {
  console.error(`bundle: UMD modules in the Node bundle (their require()s cannot be followed; add their ESM builds to ESM_BUILDS): ${umd.join(", ")}`);
  process.exit(1);
}
if (result.outputs.length !== 1) {
  console.error(`bundle: expected one output file, got ${result.outputs.length}`);
  process.exit(1);
}
// Bun keeps the entry's `#!/usr/bin/env bun` and marks the file `// @bun`: a node shebang instead, for npm's bin shim.
const body = (await result.outputs[0].text()).replace(/^#![^\n]*\n/, "").replace(/^\/\/ @bun[^\n]*\n/, "");
const path = resolve(root, outfile);
// A fresh clone has no dist/ (it is ignored); the release builds the bundle alone in one.
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, `#!/usr/bin/env node\n${body}`);
chmodSync(path, 0o755);
console.log(`${outfile}: ${(readFileSync(path).length / 1e6).toFixed(2)} MB, ${Object.keys(result.metafile.inputs).length} modules`);
