// `npm run bench`: figures for each goal of the built binary (run `npm run build` first), each the median of
// interleaved runs with min–max beside it, and the ratio to its goal. Runs under Bun (its spawnSync reports a child's
// CPU to the microsecond) and needs GNU time (/usr/bin/time) for peak RSS. BENCH_RUNS sets the runs per figure
// (default 10); BENCH_SELFTEST_RUNS the selftest's (default 10 as well, for a median of ten as every figure has; a
// selftest run takes most of a minute, and 3 is a quicker look). BENCH_CI=1 adds
// one run of .ci/run on a clean clone of HEAD (several minutes, and it needs the npm registry): the CI goal's figure.
// CGP_RUST_BIN_DIR, a directory holding the protocol's Rust suite (contextgraph-inspect) and its reference provider
// (contextgraph-example-docs), adds the rows that measure this suite against that one on that provider.
// CGP_PEERS_DIR, a directory holding the protocol's tree as cgp/ and the SDK builds as build/ (shared/peers/
// sdk-providers.md), adds a row per SDK example provider: a whole run's wall, against its goal of 1.5 s.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The little of Bun's API the bench uses (the project's types are Node's). */
declare const Bun: {
  spawnSync(
    cmd: string[],
    o: { stdin?: Uint8Array | "ignore"; stdout: "ignore" | "pipe"; stderr: "ignore"; env?: Record<string, string | undefined> },
  ): { exitCode: number | null; stdout?: Uint8Array; resourceUsage: { cpuTime: { total: number | bigint } } };
};
if (typeof Bun === "undefined") throw new Error("the bench runs under Bun: bun scripts/bench.ts (npm run bench)");

const bin = fileURLToPath(new URL("../dist/cgp-conform", import.meta.url));
const driver = fileURLToPath(new URL("./bare-driver.mjs", import.meta.url));
const fake = (name: string): string => fileURLToPath(new URL(`../test/fakes/${name}.mjs`, import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SELFTEST_RUNS = Number(process.env.BENCH_SELFTEST_RUNS ?? 10);
const dir = mkdtempSync(join(tmpdir(), "cgp-bench-"));

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  status: number | null;
  /** Provider instances the run's report says it started (--json runs only). */
  sessions?: number;
}

/**
 * One run: wall, CPU (user + system, the waited-for children included, to the microsecond) and peak RSS. The RSS
 * is GNU time's (Bun's own figure for a child it spawned never reads below Bun's own); GNU time's own CPU, about
 * a millisecond, is counted in.
 */
function measure(cmd: string[], env: Record<string, string> = {}): Sample {
  const out = join(dir, "time");
  const json = cmd.includes("--json");
  const t0 = performance.now();
  const r = Bun.spawnSync(["/usr/bin/time", "-f", "%M", "-o", out, ...cmd], {
    stdout: json ? "pipe" : "ignore",
    stderr: "ignore",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  const wallMs = performance.now() - t0;
  const rss = Number(readFileSync(out, "utf8").trim().split("\n").pop());
  // A --json run's report says how many provider instances (sessions) it started.
  const sessions = json ? startedIn(r.stdout!.toString()) : undefined;
  return {
    wallMs,
    cpuMs: Number(r.resourceUsage.cpuTime.total) / 1000,
    rssMb: rss / 1024,
    status: r.exitCode,
    ...(sessions !== undefined ? { sessions } : {}),
  };
}

/**
 * The provider instances a --json report says it started; undefined for output that is no cgp-conform report (the
 * Rust suite prints a coloured header before its JSON, and a report of its own shape).
 */
function startedIn(stdout: string): number | undefined {
  const at = stdout.startsWith("{") ? 0 : stdout.indexOf("\n{") + 1;
  try {
    const started = (JSON.parse(stdout.slice(at)) as { instances?: { started?: unknown } }).instances?.started;
    return typeof started === "number" ? started : undefined;
  } catch {
    return undefined;
  }
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

// The floor of a start-up: a compiled Bun binary that prints one line, built once.
const floor = join(dir, "floor");
writeFileSync(`${floor}.ts`, 'console.log("0.0.0");\n');
spawnSync(process.execPath, ["build", "--compile", `${floor}.ts`, "--outfile", floor], { stdio: "ignore" });

// The protocol's Rust suite and its reference provider, when CGP_RUST_BIN_DIR names their directory.
const rustDir = process.env.CGP_RUST_BIN_DIR;
const inspect = rustDir ? join(rustDir, "contextgraph-inspect") : "";
const docs = rustDir ? join(rustDir, "contextgraph-example-docs") : "";
const rust = rustDir !== undefined && existsSync(inspect) && existsSync(docs);
const rustTranscript = join(dir, "rust.ndjson");
if (rust) spawnSync(bin, ["stdio", "--transcript", rustTranscript, "--", docs], { stdio: "ignore" });

/**
 * The provider's CPU alone for what a run asked of it: each session's recorded lines, sent again to a process of
 * the same provider as its whole input, one session after another, with no driver but the kernel's pipe. Its
 * status is 2 when the provider answered fewer lines than the run recorded (it did less work than in the run).
 */
function providerAlone(transcript: string, command: string[]): Sample {
  const sent = new Map<string, Buffer[]>();
  const answers = new Map<string, number>();
  for (const l of readFileSync(transcript, "utf8").trim().split("\n").slice(1)) {
    const e = JSON.parse(l) as { session: string; dir: string; line?: string; line_hex?: string };
    if (e.dir === "recv") answers.set(e.session, (answers.get(e.session) ?? 0) + 1);
    if (e.dir !== "send") continue;
    const bytes = e.line_hex !== undefined ? Buffer.from(e.line_hex, "hex") : Buffer.from(e.line ?? "");
    sent.set(e.session, [...(sent.get(e.session) ?? []), bytes, Buffer.from("\n")]);
  }
  let [wallMs, cpuMs, status] = [0, 0, 0];
  for (const [session, input] of sent) {
    const t0 = performance.now();
    const r = Bun.spawnSync(command, { stdin: Buffer.concat(input), stdout: "pipe", stderr: "ignore" });
    wallMs += performance.now() - t0;
    cpuMs += Number(r.resourceUsage.cpuTime.total) / 1000;
    const lines = (r.stdout ?? new Uint8Array()).reduce((n, b) => n + (b === 0x0a ? 1 : 0), 0);
    if (lines < (answers.get(session) ?? 0)) status = 2;
  }
  return { wallMs, cpuMs, rssMb: Number.NaN, status };
}

// A provider that acks, then never answers: each session should cost one --timeout, its stall seen once. In sh, so
// the figure is the suite's own waits (the node fake's start, some 100 ms a session, is shown beside it).
const SILENT_TIMEOUT_MS = 300;
const silent = (provider: string[]) => [bin, "stdio", "--json", "--timeout", String(SILENT_TIMEOUT_MS), "--", ...provider];

// A provider that acks, then never answers, at a startup allowance as short as the timeout: the whole run is bounded by
// one startup and two timeouts (the first session's stall, then the canary of the fresh session that stops each group).
const WEDGE_BOUND_MS = SILENT_TIMEOUT_MS + 2 * SILENT_TIMEOUT_MS;
const wedge = (provider: string[]) => [
  bin,
  "stdio",
  "--json",
  "--timeout",
  String(SILENT_TIMEOUT_MS),
  "--startup-timeout",
  String(SILENT_TIMEOUT_MS),
  "--",
  ...provider,
];

// The protocol's SDK example providers, when CGP_PEERS_DIR names the directory they were built in.
const peersDir = process.env.CGP_PEERS_DIR;
const SDK: Array<[string, string[], string]> = peersDir
  ? [
      [
        "Python SDK example",
        ["env", `PYTHONPATH=${peersDir}/cgp/sdk/python`, "python3", `${peersDir}/cgp/sdk/python/examples/example_docs.py`],
        `${peersDir}/cgp/sdk/python`,
      ],
      ["TypeScript SDK example", [process.execPath, "dist/examples/example-docs.js"], `${peersDir}/build/typescript`],
      ["Go SDK example", [`${peersDir}/build/go/bin/example-docs`], `${peersDir}/build/go`],
    ]
  : [];
const sdk = SDK.filter(([, , cwd]) => existsSync(cwd));

/** `exits`: the statuses a run of the row may end with (0 or 1 unless said: a flood's run could not be made, 3). */
type Row = { name: string; runs: number; sample: () => Sample; exits?: number[] };
const rows: Row[] = [
  { name: "floor", runs: RUNS, sample: () => wall([floor]) },
  { name: "--version", runs: RUNS, sample: () => wall([bin, "--version"]) },
  { name: "list", runs: RUNS, sample: () => wall([bin, "list"]) },
  { name: "explain", runs: RUNS, sample: () => wall([bin, "explain", "B3"]) },
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
  { name: "wedge (sh)", runs: RUNS, sample: () => measure(wedge([fake("silent-after-handshake").replace(/\.mjs$/, ".sh")])) },
  { name: "flood", runs: RUNS, sample: () => measure([bin, "stdio", "--", process.execPath, fake("flood-huge")]), exits: [3] },
  { name: "selftest", runs: SELFTEST_RUNS, sample: () => measure([bin, "selftest"]) },
];
for (const [name, command, cwd] of sdk)
  rows.push({
    name: `sdk: ${name}`,
    runs: RUNS,
    sample: () => measure(["sh", "-c", `cd "$1" && shift && exec "$@"`, "sh", cwd, bin, "stdio", "--", ...command]),
  });
if (rust) {
  rows.push(
    { name: "rust: contextgraph-inspect", runs: RUNS, sample: () => measure([inspect, "stdio", "--json", "--", docs]) },
    { name: "rust: cgp-conform", runs: RUNS, sample: () => measure([bin, "stdio", "--", docs]) },
    { name: "rust: provider alone", runs: RUNS, sample: () => providerAlone(rustTranscript, [docs]) },
  );
}

// Interleaved: run i of every figure before run i+1 of any, so drift in the machine's load spreads over all.
const samples = new Map<string, Sample[]>(rows.map((r) => [r.name, []]));
for (let i = 0; i < Math.max(...rows.map((r) => r.runs)); i++) for (const r of rows) if (i < r.runs) samples.get(r.name)!.push(r.sample());
http.kill();

const of = (name: string, k: keyof Omit<Sample, "status" | "sessions">) => stats(samples.get(name)!.map((s) => s[k]));
const fmt = (x: number, unit: string) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ${unit}`;
/** A figure and its goal; a goal of infinity: a figure with no goal of its own. */
const line = (what: string, s: { median: number; min: number; max: number }, unit: string, goal: number, n: number) =>
  console.log(
    `${what.padEnd(52)} ${fmt(s.median, unit).padStart(9)}  (${fmt(s.min, unit)}–${fmt(s.max, unit)}, n=${n})  ${
      Number.isFinite(goal) ? `goal ≤ ${fmt(goal, unit).padEnd(8)} ratio ${(s.median / goal).toFixed(2)}${s.median <= goal ? "  ✓" : ""}` : "(no goal)"
    }`,
  );

const ms = (name: string, k: keyof Omit<Sample, "status" | "sessions">): number[] => samples.get(name)!.map((s) => s[k]);
/** Per run: run i of one figure over run i of the other, interleaved, so both saw the same load. */
const ratioOf = (a: number[], b: number[]) => stats(a.map((x, i) => x / b[i]!));
const ratioLine = (what: string, r: { median: number; min: number; max: number }, goal: number, beside: string) =>
  console.log(
    `${what.padEnd(52)} ${r.median.toFixed(2).padStart(9)}  (${r.min.toFixed(2)}–${r.max.toFixed(2)}, n=${RUNS})  goal ≤ ${goal.toFixed(1).padEnd(8)} ratio ${(r.median / goal).toFixed(2)}${r.median <= goal ? "  ✓" : ""}  ${beside}`,
  );
const range = (s: { median: number; min: number; max: number }, unit: string) => `${fmt(s.median, unit)} (${fmt(s.min, unit)}–${fmt(s.max, unit)})`;
/** A figure with no goal of its own, wall and CPU. */
const info = (what: string, name: string) =>
  console.log(
    `${what.padEnd(52)} ${fmt(of(name, "wallMs").median, "ms").padStart(9)}  (${fmt(of(name, "wallMs").min, "ms")}–${fmt(of(name, "wallMs").max, "ms")}, n=${RUNS})  CPU ${range(of(name, "cpuMs"), "ms")}  (no goal)`,
  );

const bareCpu = ms("bare replay of its requests", "cpuMs").map((c) => c - of("bare driver, no sessions", "cpuMs").median);
const ownCpu = stats(ms("reference (suite, default depth)", "cpuMs").map((c, i) => c - (bareCpu[i] ?? 0)));
const floorMs = of("floor", "wallMs");

console.log(`cgp-conform bench: ${bin}, ${RUNS} interleaved runs per figure (selftest ${SELFTEST_RUNS})\n`);
line("floor: a compiled Bun binary printing one line", floorMs, "ms", Number.POSITIVE_INFINITY, RUNS);
line("--version (goal: the floor + 3 ms)", of("--version", "wallMs"), "ms", floorMs.median + 3, RUNS);
line("list", of("list", "wallMs"), "ms", 20, RUNS);
line("explain B3", of("explain", "wallMs"), "ms", 20, RUNS);
line("validate of a small file", of("validate (one envelope)", "wallMs"), "ms", 20, RUNS);
line("replay of a small file", of("replay (handshake only)", "wallMs"), "ms", 20, RUNS);
ratioLine(
  "reference suite / bare replay of the same requests",
  ratioOf(ms("reference (suite, default depth)", "wallMs"), ms("bare replay of its requests", "wallMs")),
  1.5,
  `suite ${range(of("reference (suite, default depth)", "wallMs"), "ms")}, bare ${range(of("bare replay of its requests", "wallMs"), "ms")}`,
);
line("suite's own CPU (suite total − provider's)", ownCpu, "ms", 50, RUNS);
const inProcess = of("reference, provider in process", "wallMs");
console.log(
  `${"reference with its provider in process (no goal)".padEnd(52)} ${fmt(inProcess.median, "ms").padStart(9)}  (${fmt(inProcess.min, "ms")}–${fmt(inProcess.max, "ms")}, n=${RUNS})  CPU ${fmt(of("reference, provider in process", "cpuMs").median, "ms")}, ${(of("reference (suite, default depth)", "wallMs").median / inProcess.median).toFixed(1)}× faster than spawned`,
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
line(`a wedge after the handshake: wall (goal: startup + 2 × timeout)`, of("wedge (sh)", "wallMs"), "ms", WEDGE_BOUND_MS, RUNS);
line("flood: peak RSS of the run", of("flood", "rssMb"), "MB", 300, RUNS);
line("selftest (every case, stdio/http/https)", of("selftest", "wallMs"), "ms", 10_000, SELFTEST_RUNS);
if (rust) {
  console.log("\nagainst the protocol's Rust suite, on its reference provider (contextgraph-example-docs):");
  info("Rust suite: contextgraph-inspect stdio --json", "rust: contextgraph-inspect");
  info("cgp-conform stdio, the same provider", "rust: cgp-conform");
  ratioLine(
    "cgp-conform / Rust suite, wall",
    ratioOf(ms("rust: cgp-conform", "wallMs"), ms("rust: contextgraph-inspect", "wallMs")),
    1,
    `cgp-conform ${range(of("rust: cgp-conform", "wallMs"), "ms")}, Rust ${range(of("rust: contextgraph-inspect", "wallMs"), "ms")}`,
  );
  line("the provider's CPU for cgp-conform's requests", of("rust: provider alone", "cpuMs"), "ms", Number.POSITIVE_INFINITY, RUNS);
  const providerCpu = ms("rust: provider alone", "cpuMs");
  const own = stats(ms("rust: cgp-conform", "cpuMs").map((c, i) => c - providerCpu[i]!));
  line("suite's own CPU on it (suite total − provider's)", own, "ms", 50, RUNS);
} else {
  console.log(
    "\nRust suite rows skipped: set CGP_RUST_BIN_DIR to the directory of contextgraph-inspect and contextgraph-example-docs (README, Benchmarks: how to build them offline)",
  );
}
if (sdk.length > 0) {
  console.log("\nthe protocol's SDK example providers (a whole run each):");
  for (const [name] of sdk) line(`cgp-conform stdio, ${name}`, of(`sdk: ${name}`, "wallMs"), "ms", 1500, RUNS);
} else console.log("\nSDK provider rows skipped: set CGP_PEERS_DIR to the directory they were built in (shared/peers/sdk-providers.md)");
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
