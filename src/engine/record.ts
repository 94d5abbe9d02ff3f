import { setMaxListeners } from "node:events";
import type { CheckDef } from "../../checks/kit/check.ts";
import { HOST_VERSION } from "../math/version.ts";
import { probeByName, PROBES } from "../probe/index.ts";
import type { Probe } from "../probe/probe.ts";
import { collectFiles, FILE_LIMITS } from "../probe/provenance-files.ts";
import { remoteHost } from "../protocol/loopback.ts";
import { RunBudget, Session, WithheldError, type RecordedEvent } from "../probe/session.ts";
import { isObj } from "../protocol/envelope.ts";
import { DEFAULT_DEPTH, HANDSHAKE_STEP, PROVENANCE_FILES, type Depth } from "../protocol/probes.ts";
import { describeTarget, type Limits, type Target } from "../target/connection.ts";
import { onInterrupt } from "../target/reaper.ts";
import { HeldBytes } from "../target/lines.ts";
import { RUN_BUDGET_SPENT, type Transcript, type TranscriptEvent } from "../transcript/types.ts";
import { firstAck } from "../transcript/view.ts";
import { decideConsent, withheldReason } from "../verdict/consent.ts";
import { VERSION } from "../meta/version.ts";

export interface RunOptions {
  target: Target;
  /** Consent granted (--consent): scopes, "egress", or "all". */
  grants: string[];
  checks: readonly CheckDef[];
  /** Per-exchange read deadline. */
  timeoutMs: number;
  /** Global deadline for the whole run. */
  deadlineMs: number;
  limits: Limits;
  /** Directories whose files file provenance may be re-read from (F5). */
  trustRoots: string[];
  /** How far derived stimuli explore (default standard). */
  depth?: Depth;
  /** Told as each probe starts and each session ends: for a progress display, never for the verdict. */
  progress?: Progress;
}

/** What a progress display is told while a run records. */
export interface Progress {
  /** The run's probes, in all: told once, before any starts. */
  planned(probes: number): void;
  started(session: string, probe: string): void;
  /** A probe finished, or was abandoned. */
  done(session: string): void;
}

export { DEFAULTS } from "./defaults.ts";

/** The session the shared probes run in (transcripts from before sessions were recorded name it so too). */
export const SHARED = "shared";

/** The probes the selected checks need, each once, in registry order. */
export function probesFor(checks: readonly CheckDef[]): Probe[] {
  const wanted = new Set(
    checks
      .flatMap((c) => c.probes)
      .filter((p) => p !== PROVENANCE_FILES)
      .map((p) => p.name),
  );
  for (const name of wanted) probeByName(name);
  return PROBES.filter((p) => wanted.has(p.name));
}

/** Sessions to open: the shared one (if any probe uses it), then one per unshared probe. */
function sessionsFor(probes: Probe[]): Array<{ name: string; probes: Probe[] }> {
  const shared = probes.filter((p) => p.shared);
  return [...(shared.length > 0 ? [{ name: SHARED, probes: shared }] : []), ...probes.filter((p) => !p.shared).map((p) => ({ name: p.name, probes: [p] }))];
}

/** Why no query may be sent to a provider that acked this, or undefined (C1, C2, C4, C6). */
function withholdFor(opts: RunOptions): (ack: Record<string, unknown>) => string | undefined {
  return (ack) => withheldReason(decideConsent(ack, urlOf(opts.target), opts.grants));
}

const urlOf = (t: Target): string | undefined => (t.kind === "http" ? t.url : undefined);

async function runSession(name: string, probes: Probe[], opts: RunOptions, signal: AbortSignal, budget: RunBudget): Promise<RecordedEvent[]> {
  const s = new Session({
    name,
    probe: probes[0]!.name,
    target: opts.target,
    limits: opts.limits,
    timeoutMs: opts.timeoutMs,
    signal,
    withhold: withholdFor(opts),
    budget,
  });
  try {
    let ack: Record<string, unknown> | undefined;
    if (probes[0]!.handshake) {
      s.send(HANDSHAKE_STEP, { type: "handshake", protocol_version: HOST_VERSION });
      const env = await s.next("handshake_ack");
      if (env?.type === "handshake_ack") ack = env;
    }
    const caps = isObj(ack?.capabilities) ? ack.capabilities : {};
    const ctx = { ack, correlation: caps.correlation === true, graceMs: opts.timeoutMs, transport: opts.target.kind, depth: opts.depth ?? DEFAULT_DEPTH };
    let withheld: string | undefined;
    for (const [i, probe] of probes.entries()) {
      if (i > 0) opts.progress?.done(name);
      opts.progress?.started(name, probe.name);
      if (withheld) {
        s.abandon(probe, `no query may be sent: ${withheld}`);
        continue;
      }
      if (probe.handshake && !ack) {
        if (i > 0) s.abandon(probe, `the session's handshake failed: ${s.stalled?.why ?? "the reply was not a handshake_ack"}`);
        continue;
      }
      const stall = s.stalled;
      if (stall) {
        s.abandon(probe, `the session's provider had stopped answering: ${stall.why} in probe ${stall.probe}, step ${stall.step}`);
        continue;
      }
      s.enter(probe);
      try {
        await probe.run(s, ctx);
      } catch (e) {
        if (!(e instanceof WithheldError)) throw e;
        withheld = e.message;
      }
    }
    return s.events;
  } finally {
    opts.progress?.done(name);
    await s.close();
  }
}

/**
 * Run every probe the checks need. Sessions are independent and all run at
 * once, so a provider that hangs costs one timeout, not one per session; a
 * shared session abandons its remaining probes once its provider stalls.
 */
export async function record(opts: RunOptions): Promise<Transcript> {
  const started = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const t0 = performance.now();
  const probes = probesFor(opts.checks);
  const ctl = new AbortController();
  // Every session listens to the one signal: Node would warn of a leak past ten listeners.
  setMaxListeners(0, ctl.signal);
  const timer = setTimeout(() => ctl.abort(), opts.deadlineMs);
  // Told to stop, the run ends every session as its deadline would, and the transcript says why.
  let interrupted: NodeJS.Signals | undefined;
  const unhook = onInterrupt((sig) => {
    // After the deadline has ended the sessions, a signal interrupts nothing: the run ended by its deadline.
    if (ctl.signal.aborted) return;
    interrupted = sig;
    ctl.abort(`interrupted by ${sig}`);
  });
  try {
    const sessions = sessionsFor(probes);
    opts.progress?.planned(sessions.reduce((n, g) => n + g.probes.length, 0));
    // A run that has received more than it keeps cannot be completed: every session ends then, not at its own timeout.
    const budget = new RunBudget(opts.limits.maxLineBytes, {
      onSpent: (limit) => {
        if (!ctl.signal.aborted) ctl.abort(`stopped: ${RUN_BUDGET_SPENT}, across all its sessions (${limit})`);
      },
    });
    // What all sessions may hold at once in lines not yet complete: two line caps, 32 MiB at least.
    const held = opts.limits.held ?? new HeldBytes(Math.max(32 * 1024 * 1024, 2 * opts.limits.maxLineBytes));
    const run = { ...opts, limits: { ...opts.limits, held } };
    const perSession = await Promise.all(sessions.map((g) => runSession(g.name, g.probes, run, ctl.signal, budget)));
    const events = perSession.flat();
    const wantsFiles = opts.checks.some((c) => c.probes.includes(PROVENANCE_FILES));
    const files = wantsFiles ? collectFiles(events, opts.trustRoots, FILE_LIMITS, opts.target.kind === "http" ? remoteHost(opts.target.url) : undefined) : [];
    return {
      header: {
        cgp_conform_transcript: 1,
        tool_version: VERSION,
        host_version: HOST_VERSION,
        target: describeTarget(opts.target),
        timeout_ms: opts.timeoutMs,
        probes: [...probes.map((p) => p.name), ...(wantsFiles ? [PROVENANCE_FILES.name] : [])],
        sessions: Object.fromEntries([
          ...sessions.map((g) => [g.name, g.probes.map((p) => p.name)]),
          ...(wantsFiles ? [[PROVENANCE_FILES.name, [PROVENANCE_FILES.name]]] : []),
        ]),
        trust_roots: opts.trustRoots,
        depth: opts.depth ?? DEFAULT_DEPTH,
        started_at: started,
        duration_ms: Math.round(performance.now() - t0),
        ...(interrupted ? { interrupted } : {}),
        // Consent is decided once, on the first handshake_ack recorded, and the decision is part of the record.
        consent: decideConsent(firstAck(events), urlOf(opts.target), opts.grants),
      },
      events: [...events, ...files].map((e, i): TranscriptEvent => ({ n: i + 2, ...e })),
    };
  } finally {
    clearTimeout(timer);
    unhook();
  }
}
