// Runs cgp-conform against one provider N times and prints each distinct verdict it saw: the list of
// [check, status, codes] of every check, with how many runs gave it. A host gives one verdict on every run:
// more than one list is a defect of cgp-conform (or a provider that changes what it does between runs).
//
//   npm run repeat -- N [cgp-conform options] -- <provider command…>
//   (CGP_CONFORM=path to run another build; default dist/cgp-conform, else the source under bun)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const n = Number(args[0]);
const dash = args.indexOf("--");
if (!Number.isInteger(n) || n < 1 || dash === -1 || dash === args.length - 1) {
  process.stderr.write("usage: npm run repeat -- N [cgp-conform options] -- <provider command…>\n");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const binary = process.env.CGP_CONFORM ?? `${root}dist/cgp-conform`;
const cmd = existsSync(binary) ? [binary] : [`${root}node_modules/.bin/bun`, `${root}bin/cgp-conform.ts`];
const options = args.slice(1, dash);
const provider = args.slice(dash + 1);

const seen = new Map();
const walls = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const r = spawnSync(cmd[0], [...cmd.slice(1), "stdio", "--json", ...options, "--", ...provider], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  walls.push(performance.now() - t0);
  let key;
  try {
    const report = JSON.parse(r.stdout);
    const rows = report.results.map((c) => [c.id, c.status, [...new Set((c.evidence ?? []).filter((e) => e.status !== "pass").map((e) => e.code))].sort()]);
    key = JSON.stringify({ exit: r.status, rows });
  } catch {
    key = JSON.stringify({ exit: r.status, unreadable: (r.stderr ?? "").slice(0, 200) });
  }
  seen.set(key, (seen.get(key) ?? 0) + 1);
}
walls.sort((a, b) => a - b);
const ms = (x) => `${Math.round(x)} ms`;
process.stdout.write(
  `${n} runs of ${provider.join(" ")}: ${seen.size} distinct verdict${seen.size === 1 ? "" : "s"}; wall median ${ms(walls[Math.floor(n / 2)])} (${ms(walls[0])}–${ms(walls.at(-1))})\n`,
);
for (const [key, count] of seen) {
  const v = JSON.parse(key);
  process.stdout.write(`\n× ${count}: exit ${v.exit}\n`);
  if (v.unreadable !== undefined) process.stdout.write(`  no JSON report: ${v.unreadable}\n`);
  for (const [id, status, codes] of v.rows ?? []) if (status !== "pass" && status !== "skip") process.stdout.write(`  ${id} ${status} ${codes.join(", ")}\n`);
  const passed = (v.rows ?? []).filter(([, s]) => s === "pass" || s === "skip").length;
  process.stdout.write(`  (${passed} checks pass or skip)\n`);
}
process.exitCode = seen.size === 1 ? 0 : 1;
