// `npm run bench`: figures for each goal of the built binary (run `npm run build` first), each the median of
// interleaved runs with min–max beside it, and the ratio to its goal. Needs GNU time (/usr/bin/time) for CPU
// and peak RSS. BENCH_RUNS sets the runs per figure (default 10); BENCH_SELFTEST_RUNS the selftest's (default 3:
// a selftest run takes most of a minute). BENCH_CI=1 adds one run of .ci/run on a clean clone of HEAD (several
// minutes, and it needs the npm registry): the CI goal's figure.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/cgp-conform", import.meta.url));
const driver = fileURLToPath(new URL("./bare-driver.mjs", import.meta.url));
const fake = (name: string): string => fileURLToPath(new URL(`../test/fakes/${name}.mjs`, import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SELFTEST_RUNS = Number(process.env.BENCH_SELFTEST_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "cgp-bench-"));

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  status: number | null;
  /** Provider instances the run's report says it started (--json runs only). */
  sessions?: number;
}

/** One run under GNU time: wall, CPU (user + system, waited-for children included) and peak RSS. */
function measure(cmd: string[], env: Record<string, string> = {}): Sample {
  const out = join(dir, "time");
  const json = cmd.includes("--json");
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", "-o", out, ...cmd], {
    stdio: ["ignore", json ? "pipe" : "ignore", "ignore"],
    env: { ...process.env, NO_COLOR: "1", ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const [e, u, s, m] = readFileSync(out, "utf8").trim().split("\n").pop()!.split(" ").map(Number);
  const sessions = json ? (JSON.parse(r.stdout.toString()) as { instances?: { started?: number } }).instances?.started : undefined;
  return { wallMs: e! * 1000, cpuMs: (u! + s!) * 1000, rssMb: m! / 1024, status: r.status, ...(sessions !== undefined ? { sessions } : {}) };
}

/** Wall time alone, at sub-millisecond resolution (GNU time's is 10 ms): for the start-up figures. */
function wall(cmd: string[]): Sample {
  const t0 = performance.now();
  const r = spawnSync(cmd[0]!, cmd.slice(1), { stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } });
  return { wallMs: performance.now() - t0, cpuMs: Number.NaN, rssMb: Number.NaN, status: r.status };
}

const stats = (xs: number[]): { median: number; min: number; max: number } => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
};

// Inputs recorded once: the reference run's transcript (for the bare replay), a small file, one 15 MiB line.
const reference = join(dir, "reference.ndjson");
spawnSync(bin, ["reference", "--spawn", "--transcript", reference], { stdio: "ignore" });
const small = join(dir, "small.ndjson");
writeFileSync(small, `${readFileSync(reference, "utf8").split("\n").slice(0, 3).join("\n")}\n`);
const envelope = join(dir, "envelope.ndjson");
writeFileSync(envelope, '{"type":"shutdown"}\n');
const huge = join(dir, "huge.ndjson");
spawnSync(bin, ["stdio", "--transcript", huge, "--", "/usr/bin/env", `HUGE_ONCE=${join(dir, "huge-once")}`, process.execPath, fake("huge-answer")], {
  stdio: "ignore",
});
const header = JSON.parse(readFileSync(reference, "utf8").split("\n")[0]!) as { target: { command: string[] } };
const root = join(dir, "root");
const fixtureCommand = [bin, ...header.target.command.slice(1)];

// An HTTP fixture in its own process, so a run against it measures the suite's own memory alone.
const http = spawn(bin, ["fixture", "--attest", "--http", "0", "--root", join(dir, "http-root")], { stdio: ["ignore", "pipe", "ignore"] });
const url = await new Promise<string>((resolve) => {
  let seen = "";
  http.stdout.on("data", (c: Buffer) => {
    seen += c.toString();
    if (seen.includes("\n")) resolve(seen.split("\n")[0]!.trim());
  });
});

// A provider that acks, then never answers: each session should cost one --timeout, its stall seen once. In sh, so
// the figure is the suite's own waits (the node fake's start, some 100 ms a session, is shown beside it).
const SILENT_TIMEOUT_MS = 300;
const silent = (provider: string[]) => [bin, "stdio", "--json", "--timeout", String(SILENT_TIMEOUT_MS), "--", ...provider];

/** `exits`: the statuses a run of the row may end with (0 or 1 unless said: a flood's run could not be made, 3). */
type Row = { name: string; runs: number; sample: () => Sample; exits?: number[] };
const rows: Row[] = [
  { name: "--version", runs: RUNS, sample: () => wall([bin, "--version"]) },
  { name: "list", runs: RUNS, sample: () => wall([bin, "list"]) },
  { name: "validate (one envelope)", runs: RUNS, sample: () => measure([bin, "validate", envelope]) },
  { name: "replay (handshake only)", runs: RUNS, sample: () => measure([bin, "replay", small]) },
  // Spawned, as the bare replay's provider is: the same provider processes on both sides of the ratio.
  { name: "reference (suite, default depth)", runs: RUNS, sample: () => measure([bin, "reference", "--spawn"]) },
  { name: "reference, provider in process", runs: RUNS, sample: () => measure([bin, "reference"]) },
  { name: "bare replay of its requests", runs: RUNS, sample: () => measure([process.execPath, driver, reference, root, "--", ...fixtureCommand]) },
  { name: "bare driver, no sessions", runs: RUNS, sample: () => measure([process.execPath, driver, small, root, "--", "/bin/true"]) },
  { name: "suite over HTTP (its own RSS)", runs: RUNS, sample: () => measure([bin, "http", url]) },
  { name: "replay of one 15 MiB line", runs: RUNS, sample: () => measure([bin, "replay", huge]) },
  { name: "silent provider (sh)", runs: RUNS, sample: () => measure(silent([fake("silent-after-handshake").replace(/\.mjs$/, ".sh")])) },
  { name: "silent provider (node)", runs: Math.min(RUNS, 3), sample: () => measure(silent([process.execPath, fake("silent-after-handshake")])) },
  { name: "flood", runs: RUNS, sample: () => measure([bin, "stdio", "--", process.execPath, fake("flood-huge")]), exits: [3] },
  { name: "selftest", runs: SELFTEST_RUNS, sample: () => measure([bin, "selftest"]) },
];

// Interleaved: run i of every figure before run i+1 of any, so drift in the machine's load spreads over all.
const samples = new Map<string, Sample[]>(rows.map((r) => [r.name, []]));
for (let i = 0; i < Math.max(...rows.map((r) => r.runs)); i++) for (const r of rows) if (i < r.runs) samples.get(r.name)!.push(r.sample());
http.kill();

const of = (name: string, k: keyof Omit<Sample, "status" | "sessions">) => stats(samples.get(name)!.map((s) => s[k]));
const fmt = (x: number, unit: string) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ${unit}`;
const line = (what: string, s: { median: number; min: number; max: number }, unit: string, goal: number, n: number) =>
  console.log(
    `${what.padEnd(52)} ${fmt(s.median, unit).padStart(9)}  (${fmt(s.min, unit)}–${fmt(s.max, unit)}, n=${n})  goal ≤ ${fmt(goal, unit).padEnd(8)} ratio ${(s.median / goal).toFixed(2)}${s.median <= goal ? "  ✓" : ""}`,
  );

const suite = of("reference (suite, default depth)", "wallMs");
const bare = of("bare replay of its requests", "wallMs");
const suiteCpu = samples.get("reference (suite, default depth)")!.map((s) => s.cpuMs);
const bareCpu = samples.get("bare replay of its requests")!.map((s) => s.cpuMs - of("bare driver, no sessions", "cpuMs").median);
const ownCpu = stats(suiteCpu.map((c, i) => c - (bareCpu[i] ?? 0)));

console.log(`cgp-conform bench: ${bin}, ${RUNS} interleaved runs per figure (selftest ${SELFTEST_RUNS})\n`);
line("--version", of("--version", "wallMs"), "ms", 10, RUNS);
line("list", of("list", "wallMs"), "ms", 15, RUNS);
line("validate of a small file", of("validate (one envelope)", "wallMs"), "ms", 20, RUNS);
line("replay of a small file", of("replay (handshake only)", "wallMs"), "ms", 20, RUNS);
console.log(
  `${"reference suite / bare replay of the same requests".padEnd(52)} ${(suite.median / bare.median).toFixed(2).padStart(9)}  (suite ${fmt(suite.median, "ms")}, bare ${fmt(bare.median, "ms")})  goal ≤ 1.5      ratio ${(suite.median / bare.median / 1.5).toFixed(2)}${suite.median / bare.median <= 1.5 ? "  ✓" : ""}`,
);
line("suite's own CPU (suite total − provider's)", ownCpu, "ms", 50, RUNS);
const inProcess = of("reference, provider in process", "wallMs");
console.log(
  `${"reference with its provider in process (no goal)".padEnd(52)} ${fmt(inProcess.median, "ms").padStart(9)}  (${fmt(inProcess.min, "ms")}–${fmt(inProcess.max, "ms")}, n=${RUNS})  CPU ${fmt(of("reference, provider in process", "cpuMs").median, "ms")}, ${(suite.median / inProcess.median).toFixed(1)}× faster than spawned`,
);
line("suite's peak RSS (over HTTP, provider apart)", of("suite over HTTP (its own RSS)", "rssMb"), "MB", 60, RUNS);
line("one 15 MiB line of 118 000 frames: scored", of("replay of one 15 MiB line", "wallMs"), "ms", 2000, RUNS);
line("one 15 MiB line of 118 000 frames: peak RSS", of("replay of one 15 MiB line", "rssMb"), "MB", 300, RUNS);
const perSession = (name: string) => stats(samples.get(name)!.map((s) => s.wallMs / (s.sessions ?? Number.NaN) / SILENT_TIMEOUT_MS));
const ratio = (what: string, s: { median: number; min: number; max: number }, goal: number | undefined, n: number) =>
  console.log(
    `${what.padEnd(52)} ${s.median.toFixed(2).padStart(9)}  (${s.min.toFixed(2)}–${s.max.toFixed(2)}, n=${n})  ${goal === undefined ? "(no goal)" : `goal ≤ ${goal.toFixed(2).padEnd(8)} ratio ${(s.median / goal).toFixed(2)}${s.median <= goal ? "  ✓" : ""}`}`,
  );
ratio("silent provider: wall per session / --timeout", perSession("silent provider (sh)"), 1.1, RUNS);
ratio("  the same, a node provider (its start included)", perSession("silent provider (node)"), undefined, Math.min(RUNS, 3));
line("flood: peak RSS of the run", of("flood", "rssMb"), "MB", 300, RUNS);
line("selftest (every case, stdio/http/https)", of("selftest", "wallMs"), "ms", 10_000, SELFTEST_RUNS);
if (process.env.BENCH_CI === "1") {
  // Last, alone: a clean clone of HEAD, installed and tested as CI does it.
  const clone = join(dir, "ci");
  spawnSync("git", ["clone", "-q", fileURLToPath(new URL("..", import.meta.url)), clone], { stdio: "ignore" });
  const ci = measure(["bash", join(clone, ".ci/run")], { CI: "true" });
  const ok = ci.status === 0 ? "" : `  (exit ${ci.status}: the run failed)`;
  line(".ci/run from a clean clone", { median: ci.wallMs, min: ci.wallMs, max: ci.wallMs }, "ms", 120_000, 1);
  if (ok) console.log(ok);
}
const exits = new Map(rows.map((r) => [r.name, r.exits ?? [0, 1]]));
const failed = [...samples].filter(([n, s]) => s.some((x) => !exits.get(n)!.includes(x.status ?? -1))).map(([n]) => n);
if (failed.length > 0) console.log(`\nruns that exited other than 0 or 1: ${failed.join(", ")}`);
rmSync(dir, { recursive: true, force: true });
