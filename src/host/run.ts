/**
 * `cgp-conform host`: run a host under test once per scenario, against the
 * scenario provider served here (over a relay it spawns for {provider}, or
 * on a loopback URL for {url}; a scenario that needs a non-loopback peer, on
 * the --listen address), and record everything into a host transcript.
 *
 * This is the loop: which scenarios the host command can be run in (the
 * rest are recorded as skipped, with what would enable them), one after
 * another, until a signal interrupts the run, and the transcript. One
 * scenario is scenario.ts's; serving its providers serve-stdio.ts's and
 * serve-http.ts's; the host's output capture.ts's; its bound bound.ts's; the
 * run's token secrets.ts's.
 */
import { deriveHostRunFacts } from "../transcript/host-run-facts.ts";
import { HOST_ENV, PROVIDER_PLACEHOLDERS, providersNamed, type ScenarioSpec } from "../protocol/host-scenarios.ts";
import { VERSION } from "../meta/version.ts";
import { onInterrupt } from "../target/reaper.ts";
import type { HostTranscript, ScenarioRecord } from "../transcript/host.ts";
import { Recorder } from "./session.ts";
import type { HostRunOptions } from "./options.ts";
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

/** Run every scenario, one after another, and return the host transcript. */
export async function runHost(o: HostRunOptions): Promise<HostTranscript> {
  const secrets = runSecrets();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const rec = new Recorder();
  const records: ScenarioRecord[] = [];
  const named = providersNamed(o.command, o.transport);
  const unservable = (s: ScenarioSpec): string | undefined => unservableIn(s, o, named);
  const runnable = o.scenarios.filter((s) => unservable(s) === undefined);
  for (const s of o.scenarios) {
    const skipped = unservable(s);
    records.push({ name: s.name, transport: o.transport, ...(skipped ? { skipped } : {}), ...(s.providers ? { providers: s.providers } : {}) });
  }
  // A signal ends the scenario in progress (its host is killed as at the bound) and the run, which reports what it saw.
  let interrupted: NodeJS.Signals | undefined;
  const stop = new AbortController();
  const unregister = onInterrupt((sig) => {
    interrupted = sig;
    stop.abort();
  });
  try {
    for (const [i, s] of runnable.entries()) {
      if (interrupted) break;
      o.onScenario?.(s.name, i, runnable.length);
      await runScenario(s, { ...o, signal: stop.signal }, secrets, rec);
    }
  } finally {
    unregister();
  }
  if (interrupted) {
    // What a signal cut short, or kept from running, was not observed: its checks skip, they are not judged on half a scenario.
    const reached = new Set(rec.events.map((e) => e.scenario));
    const last = [...reached].pop();
    for (const r of records) {
      if (r.skipped) continue;
      if (r.name === last) r.skipped = `the run was interrupted by ${interrupted} while it ran`;
      else if (!reached.has(r.name)) r.skipped = `the run was interrupted by ${interrupted} before it ran`;
    }
  }
  rec.events.forEach((e, i) => (e.n = i + 2));
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
      run_facts: deriveHostRunFacts(records, rec.events),
    },
    events: rec.events,
  };
}
