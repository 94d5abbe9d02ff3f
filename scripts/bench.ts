// Prints wall-clock figures for the built binary (run `npm run build` first):
// start-up (--version), the whole suite against the bundled provider, the
// selftest, and how long a hanging provider holds a run (timeout 1000 ms).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/cgp-conform", import.meta.url));
const fake = (name: string): string => fileURLToPath(new URL(`../test/fakes/${name}.mjs`, import.meta.url));

function time(args: string[], runs: number): { median: number; min: number; max: number; status: number | null } {
  const ms: number[] = [];
  let status: number | null = null;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    status = spawnSync(bin, args, { stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } }).status;
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, min: ms[0]!, max: ms[ms.length - 1]!, status };
}

const rows: Array<[string, string[], number]> = [
  ["--version (start-up)", ["--version"], 20],
  ["reference (whole suite over stdio, honest provider)", ["reference"], 10],
  ["stdio, provider silent after handshake, --timeout 1000", ["stdio", "--timeout", "1000", "--", process.execPath, fake("silent-after-handshake")], 5],
  ["stdio, provider never answers, --timeout 1000", ["stdio", "--timeout", "1000", "--", process.execPath, fake("never-answers")], 5],
  ["selftest (honest + every mode, stdio/http/https)", ["selftest"], 1],
];
for (const [name, args, runs] of rows) {
  const r = time(args, runs);
  console.log(
    `${name.padEnd(58)} median ${r.median.toFixed(0).padStart(6)} ms  min ${r.min.toFixed(0).padStart(6)}  max ${r.max.toFixed(0).padStart(6)}  (n=${runs}, exit ${r.status})`,
  );
}
