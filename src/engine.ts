import { evaluate, type CheckDef, type CheckResult } from "./check.ts";
import { HOST_VERSION } from "./math/version.ts";
import { probeByName, PROBES } from "./probe/index.ts";
import type { Probe } from "./probe/probe.ts";
import { Session } from "./probe/session.ts";
import type { Limits, StdioTarget } from "./target/stdio.ts";
import type { Transcript, TranscriptEvent } from "./transcript/types.ts";
import { isObj, ProbeView } from "./transcript/view.ts";
import { VERSION } from "./version.ts";

export interface RunOptions {
  target: StdioTarget;
  checks: readonly CheckDef[];
  /** Per-exchange read deadline. */
  timeoutMs: number;
  /** Global deadline for the whole run. */
  deadlineMs: number;
  limits: Limits;
}

export const DEFAULTS = {
  timeoutMs: 5000,
  deadlineMs: 120_000,
  limits: { maxLineBytes: 16 * 1024 * 1024, maxStderrBytes: 64 * 1024 },
} as const;

/** The probes the selected checks need, each once, in registry order. */
export function probesFor(checks: readonly CheckDef[]): Probe[] {
  const wanted = new Set(checks.flatMap((c) => c.probes));
  for (const name of wanted) probeByName(name);
  return PROBES.filter((p) => wanted.has(p.name));
}

async function runProbe(probe: Probe, opts: RunOptions, signal: AbortSignal): Promise<Omit<TranscriptEvent, "n">[]> {
  const s = new Session({ probe: probe.name, target: opts.target, limits: opts.limits, timeoutMs: opts.timeoutMs, signal });
  try {
    let ack: Record<string, unknown> | undefined;
    if (probe.handshake) {
      s.send("handshake", { type: "handshake", protocol_version: HOST_VERSION });
      const env = await s.next("handshake_ack");
      if (env?.type !== "handshake_ack") return s.events;
      ack = env;
    }
    const caps = isObj(ack?.capabilities) ? ack.capabilities : {};
    await probe.run(s, { ack, correlation: caps.correlation === true, graceMs: opts.timeoutMs });
    return s.events;
  } finally {
    await s.close();
  }
}

/**
 * Run every probe the checks need, each in its own session, all at once:
 * sessions are independent, and a provider that hangs then costs one
 * timeout, not one per probe.
 */
export async function record(opts: RunOptions): Promise<Transcript> {
  const probes = probesFor(opts.checks);
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), opts.deadlineMs);
  try {
    const perProbe = await Promise.all(probes.map((p) => runProbe(p, opts, ctl.signal)));
    const events = perProbe.flat().map((e, i) => ({ n: i + 2, ...e }));
    return {
      header: {
        cgp_conform_transcript: 1,
        tool_version: VERSION,
        host_version: HOST_VERSION,
        target: { kind: "stdio", command: opts.target.command },
        timeout_ms: opts.timeoutMs,
        probes: probes.map((p) => p.name),
      },
      events,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Score a transcript: pure, so a live run and a replay give the same verdicts. */
export function score(transcript: Transcript, checks: readonly CheckDef[]): CheckResult[] {
  const byProbe = new Map<string, TranscriptEvent[]>();
  for (const e of transcript.events) {
    const list = byProbe.get(e.probe) ?? [];
    list.push(e);
    byProbe.set(e.probe, list);
  }
  const views = new Map<string, ProbeView>();
  const probe = (name: string): ProbeView => {
    let v = views.get(name);
    if (!v) {
      v = new ProbeView(name, byProbe.get(name) ?? []);
      views.set(name, v);
    }
    return v;
  };
  return checks.map((c) => evaluate(c, { probe }));
}
