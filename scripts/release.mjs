// Cross-compiles the single binary for every supported platform into dist/,
// with a SHA256SUMS file. Bun fetches each target's runtime from the npm
// registry the first time.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bun = fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url));
const TARGETS = [
  ["bun-linux-x64", "cgp-conform-linux-x64"],
  ["bun-linux-arm64", "cgp-conform-linux-arm64"],
  ["bun-darwin-x64", "cgp-conform-darwin-x64"],
  ["bun-darwin-arm64", "cgp-conform-darwin-arm64"],
  ["bun-windows-x64", "cgp-conform-windows-x64.exe"],
];
const only = process.argv.slice(2);
const sums = [];
for (const [target, name] of TARGETS.filter(([t]) => only.length === 0 || only.includes(t))) {
  execFileSync(
    bun,
    [
      "build",
      "bin/cgp-conform.ts",
      "--compile",
      `--target=${target}`,
      "--format=esm",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--outfile",
      `dist/${name}`,
    ],
    { cwd: root, stdio: "inherit" },
  );
  const digest = createHash("sha256")
    .update(readFileSync(`${root}/dist/${name}`))
    .digest("hex");
  sums.push(`${digest}  ${name}`);
  console.log(`${name}: sha256 ${digest}`);
}
writeFileSync(`${root}/dist/SHA256SUMS`, sums.join("\n") + "\n");
console.log(`dist/SHA256SUMS: ${sums.length} binaries`);
