/**
 * `cgp-conform host`: run a host under test once per scenario, against the
 * scenario provider served here (over a relay it spawns for {provider}, or
 * on a loopback URL for {url}; a scenario that needs a non-loopback peer, on
 * the --listen address), and record everything into a host transcript.
 *
 * This is the loop: which scenarios the host command can be run in (the
 * rest are recorded as skipped, with what would enable them), up to --jobs
 * at once, until a signal interrupts the run, and the transcript. One
 * scenario is scenario.ts's; serving its providers serve-stdio.ts's and
 * serve-http.ts's; the host's output capture.ts's; its bound bound.ts's; the
 * run's token secrets.ts's.
 */
import { setMaxListeners } from "node:events";
import { deriveHostRunFacts } from "../transcript/host-run-facts.ts";
import { boundFloorMs, HOST_ENV, PROVIDER_PLACEHOLDERS, providersNamed, type ScenarioSpec } from "../protocol/host-scenarios.ts";
import { VERSION } from "../meta/version.ts";
import { onInterrupt } from "../target/reaper.ts";
import type { HostTranscript, ScenarioRecord } from "../transcript/host.ts";
import { Recorder } from "./session.ts";
import { DEFAULT_HOST_JOBS, type HostRunOptions } from "./options.ts";
import { pool } from "../target/pool.ts";
import { runScenario } from "./scenario.ts";
import { runSecrets } from "./secrets.ts";

/** Why a scenario cannot be run with this host command and these options (recorded as its skip), or undefined where it can. */
function unservableIn(s: ScenarioSpec, o: HostRunOptions, named: number): string | undefined {
  const peer = s.listen && o.listen === undefined && !o.inProcess && !o.standIn;
  if (s.only && s.only !== o.transport)
    return `it runs over ${s.only} only, and the host command names ${o.transport === "stdio" ? "{provider}" : "{url}"}${peer ? "; with {url}, `--listen ADDR` enables it" : ""}`;
  if (peer) return "its provider is served on a non-loopback address of this machine: `--listen ADDR` enables it";
  const needs = s.providers ?? 1;
  if (needs <= named) return undefined;
  const missing = PROVIDER_PLACEHOLDERS[o.transport].slice(named, needs);
  const none = missing.length === 1 ? `no ${missing[0]}` : `neither ${missing.join(" nor ")}`;
  const list = o.transport === "stdio" ? HOST_ENV.commands : HOST_ENV.urls;
  return `it serves ${needs} providers, and the host command names ${none}: name ${missing.join(" and ")} where the host takes further providers (or name ${list} in the command line and read them from it)`;
}

/**
 * Run every scenario, up to `o.jobs` at once, and return the host transcript. Each scenario records into a
 * recorder of its own, and the transcript holds them in the declared order, so it reads as if they had run one
 * after another, and a run's lines are the same whatever order its scenarios ended in.
 */
export async function runHost(o: HostRunOptions): Promise<HostTranscript> {
  const secrets = runSecrets();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const records: ScenarioRecord[] = [];
  const named = providersNamed(o.command, o.transport);
  const unservable = (s: ScenarioSpec): string | undefined => unservableIn(s, o, named);
  const runnable = o.scenarios.filter((s) => unservable(s) === undefined);
  for (const s of o.scenarios) {
    const skipped = unservable(s);
    records.push({ name: s.name, transport: o.transport, ...(skipped ? { skipped } : {}), ...(s.providers ? { providers: s.providers } : {}) });
  }
  // A signal ends every scenario in progress (its host is killed as at the bound) and the run, which reports what it saw.
  let interrupted: NodeJS.Signals | undefined;
  const running = new Set<string>();
  let cut: ReadonlySet<string> = new Set();
  const stop = new AbortController();
  // Every running scenario listens on it, up to --jobs of them at once.
  setMaxListeners(0, stop.signal);
  const unregister = onInterrupt((sig) => {
    if (interrupted) return;
    interrupted = sig;
    cut = new Set(running);
    stop.abort();
  });
  o.progress?.planned(runnable.length);
  // Each scenario's record, at its place in the declared order, whatever order they ran and ended in.
  const recorders: Array<Recorder | undefined> = new Array(runnable.length);
  try {
    // The scenarios whose fault a host must wait out (its own read deadline, seconds) start first: started last, the
    // longest wait of the run would begin only when the rest were done. The transcript keeps the declared order.
    const faultFirst = [...runnable.keys()].sort((a, b) => Number(boundFloorMs(runnable[b]!) > 0) - Number(boundFloorMs(runnable[a]!) > 0));
    await pool(faultFirst, o.jobs ?? DEFAULT_HOST_JOBS, async (i) => {
      const s = runnable[i]!;
      if (interrupted) return;
      const rec = new Recorder();
      recorders[i] = rec;
      running.add(s.name);
      o.progress?.started(s.name, s.name);
      try {
        await runScenario(s, { ...o, signal: stop.signal }, secrets, rec);
      } finally {
        running.delete(s.name);
        o.progress?.done(s.name);
      }
    });
  } finally {
    unregister();
  }
  if (interrupted) {
    // What a signal cut short, or kept from running, was not observed: its checks skip, they are not judged on half a scenario.
    const ran = new Set(runnable.filter((_, i) => recorders[i] !== undefined).map((s) => s.name));
    for (const r of records) {
      if (r.skipped) continue;
      if (cut.has(r.name)) r.skipped = `the run was interrupted by ${interrupted} while it ran`;
      else if (!ran.has(r.name)) r.skipped = `the run was interrupted by ${interrupted} before it ran`;
    }
  }
  const events = recorders.flatMap((rec) => rec?.events ?? []);
  events.forEach((e, i) => (e.n = i + 2));
  return {
    header: {
      cgp_conform_host_transcript: 1,
      tool_version: VERSION,
      command: [...o.command],
      transport: o.transport,
      timeout_ms: o.timeoutMs,
      started_at: startedAt,
      duration_ms: Math.round(performance.now() - t0),
      scenarios: records,
      ...(interrupted ? { interrupted } : {}),
      // What decides whether the run could be made is recorded once, here, and read by the report as a fact.
      run_facts: deriveHostRunFacts(records, events),
    },
    events,
  };
}
