/**
 * The selftest: the suite against the reference provider, honest and with
 * each misbehave mode, and the host checks against the reference host, each
 * case run (in shards, in-process or as a process) and judged by
 * src/engine/selftest-case.ts.
 */
import { MODES } from "../../misbehave/index.ts";
import { VARIANTS } from "../reference/variants.ts";
import type { Mode } from "../../misbehave/mode.ts";
import { runSuite, type SuiteOptions } from "./run.ts";
import { DEFAULTS } from "./defaults.ts";
import { TEST_CERT } from "../reference/tls.ts";
import { fixtureCommand, selfCommand, withFixtureRoot, withHttpFixture } from "./fixture-process.ts";
import { execa } from "execa";
import { CHECKS } from "../../checks/index.ts";
import { inProcessFixture, providerFor } from "../../misbehave/apply.ts";
import { materialize } from "../reference/files.ts";
import { serveHttp } from "../reference/http.ts";
import type { CheckResult } from "../verdict/status.ts";
import { casesOfJson, judge, type Driven, type SelftestCase, type SelftestReport, type Transport } from "./selftest-case.ts";
import { HOST_MODES } from "../../misbehave/host/index.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { SCENARIOS } from "../protocol/host-scenarios.ts";
import { runHost } from "../host/run.ts";
import { DEFAULT_HOST_JOBS } from "../host/options.ts";
import { scoreHost } from "../host/score.ts";
import { inProcessReferenceHost } from "../../misbehave/host/apply.ts";
import { loopClock } from "../target/clock.ts";
import { pool } from "../target/pool.ts";

/**
 * Which cases start the provider as a process. Every case proves a check
 * against a defect; the path a real provider takes (spawn, pipes, a server
 * in another process) is proven by the honest provider on every transport,
 * by every mode whose defect is about the process (stdioOnly: crashes,
 * exits, stdout framing), and over HTTP by every twentieth mode besides. The
 * rest run the same provider in-process, through the same line splitter and
 * the same HTTP client: a spawned case costs a process per session, which is
 * most of what the selftest would otherwise spend.
 */
export function drivenFor(c: { mode?: string; variant?: string; stdioOnly?: string; index: number }, transport: Transport): Driven {
  if (c.mode === undefined && c.variant === undefined) return "process";
  if (transport === "stdio") return c.stdioOnly !== undefined ? "process" : "in-process";
  return c.mode !== undefined && c.index % 20 === 0 ? "process" : "in-process";
}

/** The per-exchange deadline of an in-process case (or the run's, if shorter). */
export const IN_PROCESS_TIMEOUT_MS = 3000;

/** How long the reference host waits for an answer in a selftest case, and the bound on one scenario. */
export const HOST_CASE_READ_MS = 800;
/**
 * The same, where the reference host runs as a process: its answers come through a relay and another runtime,
 * and over HTTP from servers on this process's thread, which the in-process cases beside them hold for seconds
 * under load (the Node bundle most). The host's deadline is wall time in another process: only room makes it
 * wait out a held thread. It costs its length once per case, in stops-answering, where no answer comes.
 */
export const HOST_PROCESS_READ_MS = 10_000;
export const HOST_CASE_BOUND_MS = 3000;
/**
 * The bound on one scenario where the reference host runs as a process,
 * from its first contact with a provider: each further provider it reaches
 * starts a runtime first, which a loaded machine can stretch by seconds.
 * Only a mode that hangs would wait this long, and none runs as a process
 * unless its defect exists on one transport only (hostDrivenFor).
 */
export const HOST_PROCESS_BOUND_MS = 30_000;

/**
 * Which host cases run the reference host as a process, reaching the
 * scenario providers over a relay it spawns or the loopback HTTP server, as
 * any host under test does: the honest host on both transports, every mode
 * whose defect exists on one transport only (C8's printed token, a
 * pretty-printed handshake), and every tenth mode but one whose host never
 * ends. The rest run the same host in this process, against the same
 * scenario sessions: a process per scenario (two, with the relay) is most of
 * what a host case would otherwise cost. A host that never ends waits out the
 * whole bound, 30 s as a process and 3 s here; that a host process is killed
 * at its bound, and judged for it, is proven by test/host-edges.test.ts.
 */
export function hostDrivenFor(c: { mode?: string; index: number; only?: "stdio" | "http"; finding?: unknown }): Driven {
  // A mode whose defect exists on one transport only (a token printed, a handshake over lines) is about the process's own output or pipe.
  return c.mode === undefined || c.only !== undefined || (c.index % 10 === 0 && !hangs(c.finding)) ? "process" : "in-process";
}

/**
 * Host cases run as processes at once in their shard: each spends most of its time waiting on a host that waits out
 * the fault scenarios' deadlines, with little for its own thread to do.
 */
const APART_CONCURRENCY = 6;
/** Scenarios a host case run as a process runs at once. */
const PROCESS_HOST_JOBS = 2;

/** Whether a mode's pinned finding is a host that did not end: its case waits out the scenario's bound. */
function hangs(finding: unknown): boolean {
  const code = typeof finding === "object" && finding !== null && "code" in finding ? (finding as { code: unknown }).code : finding;
  return typeof code === "string" && /\.(not-ended|hung)$/.test(code);
}

/**
 * The cases shard `index` of `of` runs. A reference host run as a process
 * reads, with a wall-clock deadline in its own process, what the scenario
 * sessions on this process's thread serve it; in-process cases and their
 * scoring hold that thread for seconds on a loaded machine, the Node
 * bundle most. With two shards or more, those host cases (`apart`) get the
 * last shard to themselves, where nothing else holds the thread, and the
 * other shards share the rest, every (of − 1)-th case each.
 */
export function shardOf<T>(cases: readonly T[], shard: { index: number; of: number }, apart: (c: T) => boolean): T[] {
  if (shard.of < 2) return [...cases];
  if (shard.index === shard.of) return cases.filter(apart);
  return cases.filter((c) => !apart(c)).filter((_, i) => i % (shard.of - 1) === shard.index - 1);
}

/** What the reference host is given after its options: its files, and every provider a scenario may serve. */
export const REFERENCE_HOST_ARGS = {
  stdio: ["--context", "{context}", "--usage", "{usage}", "--", "{provider}", "--and", "--", "{provider2}", "--and", "--", "{provider3}"],
  http: ["--context", "{context}", "--usage", "{usage}", "--url", "{url}", "{url2}", "{url3}"],
} as const;

/** `cgp-conform host` against the bundled reference host, honest or with one host mode, over stdio or HTTP. */
async function runHostCase(mode: string | undefined, transport: "stdio" | "http", driven: Driven): Promise<CheckResult[]> {
  const host = [
    ...selfCommand(),
    "reference-host",
    "--timeout",
    String(driven === "process" ? HOST_PROCESS_READ_MS : HOST_CASE_READ_MS),
    ...(mode ? ["--misbehave", mode] : []),
  ];
  const command = [...host, ...REFERENCE_HOST_ARGS[transport]];
  const t = await runHost({
    command,
    transport,
    timeoutMs: driven === "process" ? HOST_PROCESS_BOUND_MS : HOST_CASE_BOUND_MS,
    // The reference host here reads with a deadline of HOST_CASE_READ_MS: the fault scenarios' floor, a deadline a host may take, is this bound.
    floorMs: driven === "process" ? HOST_PROCESS_BOUND_MS : HOST_CASE_BOUND_MS,
    // A host process's bound runs from when it reached its provider: before that it and its relay are starting their
    // runtimes, which a loaded machine stretches by seconds. Reaching none costs a provider's startup allowance.
    ...(driven === "process" ? { startupMs: DEFAULTS.startupTimeoutMs } : {}),
    // A process case runs two scenarios at once (with APART_CONCURRENCY cases at once, twelve host processes and their
    // relays on two cores); in this process, a host's scenarios run as a provider's sessions do, four at once.
    jobs: driven === "process" ? PROCESS_HOST_JOBS : DEFAULT_HOST_JOBS,
    scenarios: SCENARIOS,
    ...(driven === "in-process" ? { inProcess: inProcessReferenceHost(mode, HOST_CASE_READ_MS) } : {}),
    // The scenarios of C4 and C7 need a non-loopback peer: here they run with the host in this process, handed a URL nothing serves and nothing reaches.
    standIn: inProcessReferenceHost(mode, HOST_CASE_READ_MS),
  });
  return scoreHost(t, HOST_CHECKS);
}

/** The suite against the reference provider, honest (in one of its variants) or with one mode, over one transport. */
function runCase(mode: string | undefined, transport: Transport, opts: SuiteOptions, variant: string | undefined, driven: Driven, root: string) {
  return (async () => {
    // The selftest proves the checks: as the host operator it grants every
    // scope, so a mode that declares egress is still queried and judged.
    // In-process, a reply is a turn of the event loop away: a mode that never answers costs a short wait, not a pipe's.
    const timeoutMs = driven === "in-process" ? Math.min(opts.timeoutMs ?? DEFAULTS.timeoutMs, IN_PROCESS_TIMEOUT_MS) : opts.timeoutMs;
    // In-process, the reference provider starts at once: a mode that never answers its first line (a foreign handshake
    // left to hang) costs an exchange's deadline. As a process it starts a runtime first, which load stretches by seconds:
    // it gets a provider's startup allowance, which only a process case that never answers would spend, and none does.
    const startupTimeoutMs = opts.startupTimeoutMs ?? (driven === "in-process" ? (timeoutMs ?? DEFAULTS.timeoutMs) : DEFAULTS.startupTimeoutMs);
    // In-process, the provider answers on this process's thread, shared with every other case and session here: its
    // deadlines count the time the thread was free to run, not the time others held it.
    const o = {
      ...opts,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      startupTimeoutMs,
      trustRoots: [root],
      grants: ["all"],
      ...(driven === "in-process" ? { clock: loopClock } : {}),
    };
    const command = fixtureCommand(mode, root, variant);
    if (transport === "stdio")
      return (await runSuite({ kind: "stdio", command, ...(driven === "in-process" ? { inProcess: inProcessFixture(mode, root, true, variant) } : {}) }, o))
        .report;
    const tls = transport === "https";
    const run = async (url: string) => (await runSuite({ kind: "http", url, headers: {}, ...(tls ? { ca: TEST_CERT } : {}) }, o)).report;
    if (driven === "process") return withHttpFixture(mode, root, tls, run, variant);
    materialize(root);
    const served = await serveHttp(providerFor(mode, root, true, variant), 0, tls);
    try {
      return await run(served.url);
    } finally {
      await served.close();
    }
  })();
}

/**
 * Prove the suite: the honest provider fails nothing, and every misbehave mode
 * fails exactly its expected checks, on stdio and (where the defect exists
 * there) over HTTP; the honest provider over HTTPS as well.
 */
export async function selftest(
  opts: SuiteOptions & {
    concurrency?: number;
    transports?: Transport[];
    onCase?: (c: SelftestCase) => void;
    /** Run only cases i, i+n, i+2n… (1-based i): one of n shards. */
    shard?: { index: number; of: number };
    /** Run the cases in this many processes at once: this one, and `jobs - 1` shards of itself (each case's in-process provider runs on its process's one thread). */
    jobs?: number;
  } = {},
): Promise<SelftestReport> {
  const transports = opts.transports ?? ["stdio", "http", "https"];
  const honest = {
    name: "honest",
    defect: "none: the reference provider as published",
    expectFail: [] as string[],
    expectWarn: [] as string[],
    expectInfo: [] as string[],
    expectUnobserved: [] as string[],
    finding: undefined as Mode["finding"] | undefined,
    mode: undefined as string | undefined,
    variant: undefined as string | undefined,
    stdioOnly: undefined as string | undefined,
    index: 0,
    side: "provider" as "provider" | "host",
    only: undefined as "stdio" | "http" | undefined,
  };
  // Every honest variant must come out clean too: one that trips a check is a precision bug in the check.
  const variants = VARIANTS.map((v) => ({ ...honest, name: `honest:${v.name}`, defect: `none: ${v.shape}`, variant: v.name }));
  const modes = MODES.map((m, index) => ({
    ...honest,
    name: m.name,
    defect: m.defect,
    expectFail: m.expectFail,
    expectWarn: m.expectWarn ?? [],
    expectUnobserved: m.expectUnobserved ?? [],
    finding: m.finding,
    mode: m.name,
    stdioOnly: m.stdioOnly,
    index,
  }));
  // Hosts: the reference host, honest and with each host mode, run through every scenario (stdio and HTTP; not HTTPS, which the scenarios do not serve).
  const hostHonest = { ...honest, name: "honest:reference-host", defect: "none: the reference host as published", side: "host" as const };
  const hostModes = HOST_MODES.map((m, index) => ({
    ...hostHonest,
    name: `host:${m.name}`,
    defect: m.defect,
    expectFail: m.expectFail,
    expectWarn: m.expectWarn ?? [],
    expectInfo: m.expectInfo ?? [],
    finding: m.finding,
    mode: m.name,
    index,
    only: m.only,
  }));
  const cases = transports.flatMap((transport) => [
    ...[honest, ...variants, ...modes]
      .filter((c) => transport === "stdio" || (transport === "http" ? !c.stdioOnly : c.mode === undefined && c.variant === undefined))
      .map((c) => ({ ...c, transport })),
    ...(transport === "https" ? [] : [hostHonest, ...hostModes].filter((c) => c.only === undefined || c.only === transport).map((c) => ({ ...c, transport }))),
  ]);
  const jobs = opts.shard ? 1 : Math.max(1, Math.min(opts.jobs ?? 1, cases.length));
  const shard = opts.shard ?? { index: 1, of: jobs };
  const mine = shardOf(cases, shard, (c) => c.side === "host" && hostDrivenFor(c) === "process");
  const apartShard = shard.of >= 2 && shard.index === shard.of;
  // In the apart shard a case lasts as long as its host waits: a mode whose host never ends would wait out the whole
  // bound (none runs here today, unless its defect exists on one transport only), so it starts first, and the run is as
  // long as it is rather than its bound past the rest. Results are put back in the declared order below.
  if (apartShard) mine.sort((a, b) => Number(hangs(b.finding)) - Number(hangs(a.finding)));
  // The other shards run as copies of this cgp-conform, started now, so they run while this one does.
  const others = Array.from({ length: jobs - 1 }, (_, k) => runShard(k + 2, jobs, opts));
  // One directory of provider files for every case this process runs: no mode alters the files, so
  // every case serves the same file:// URIs, and an answer signed (or verified) in one case is signed once.
  const results = await withFixtureRoot((root) =>
    pool(mine, opts.concurrency ?? (apartShard ? APART_CONCURRENCY : 3), async (c) => {
      const driven = c.side === "host" ? hostDrivenFor(c) : drivenFor(c, c.transport);
      const started = performance.now();
      const results =
        c.side === "host"
          ? await runHostCase(c.mode, c.transport as "stdio" | "http", driven)
          : (await runCase(c.mode, c.transport, opts, c.variant, driven, root)).results;
      const ms = Math.round(performance.now() - started);
      const verdict = { ...judge(c.name, c.transport, c.defect, c.expectFail, results, c.finding, c.expectWarn, c.expectInfo, c.expectUnobserved), driven, ms };
      opts.onCase?.(verdict);
      return verdict;
    }),
  );
  const theirs = (await Promise.all(others)).flat();
  for (const c of theirs) opts.onCase?.(c);
  // Every case in the order a single process runs them, whichever shard ran it.
  const order = new Map(cases.map((c, i) => [`${c.transport} ${c.name}`, i]));
  const all = [...results, ...theirs].sort((a, b) => order.get(`${a.transport} ${a.name}`)! - order.get(`${b.transport} ${b.name}`)!);
  const missing = (opts.shard ? mine.length : cases.length) - all.length;
  if (missing > 0) throw new Error(`${missing} selftest cases were not run: a shard failed`);
  return { ok: all.every((c) => c.ok), checks: CHECKS.length, modes: MODES.length, host_checks: HOST_CHECKS.length, host_modes: HOST_MODES.length, cases: all };
}

/** One shard of the selftest, run by a copy of this cgp-conform: its cases, judged, as its --json gives them (without results). */
async function runShard(index: number, of: number, opts: SuiteOptions & { transports?: Transport[] }): Promise<SelftestCase[]> {
  const [file, ...args] = selfCommand();
  const r = await execa(
    file!,
    [
      ...args,
      "selftest",
      "--json",
      "--shard",
      `${index}/${of}`,
      ...(opts.timeoutMs !== undefined ? ["--timeout", String(opts.timeoutMs)] : []),
      ...(opts.transports ?? []).flatMap((t) => ["--transport", t]),
    ],
    { reject: false, stdin: "ignore", stderr: "inherit" },
  );
  const cases = casesOfJson(r.stdout);
  if (!cases) throw new Error(`selftest shard ${index}/${of} gave no report (exit ${r.exitCode})`);
  return cases;
}
