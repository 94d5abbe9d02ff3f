/**
 * Recording a run: every session of the plan (src/engine/plan.ts) run
 * against the provider, resumed in a fresh session past a stimulus that
 * killed or wedged it, and the events of all of them made one transcript.
 */
import { setMaxListeners } from "node:events";
import type { CheckDef } from "../../checks/kit/check.ts";
import { HOST_VERSION } from "../math/version.ts";
import type { Probe } from "../probe/probe.ts";
import { collectFiles, digestFiles, FILE_LIMITS } from "../probe/provenance-files.ts";
import { remoteHost } from "../protocol/loopback.ts";
import { RunBudget } from "../probe/run-budget.ts";
import { Session } from "../probe/session.ts";
import { stimulusKey, WithheldError, type RecordedEvent, type Stall } from "../probe/session-types.ts";
import { isObj } from "../protocol/envelope.ts";
import { CANARY_STEP, DEFAULT_DEPTH, HANDSHAKE_STEP, PROVENANCE_FILES, type Depth } from "../protocol/probes.ts";
import { query } from "../probe/probe.ts";
import { describeTarget, type Limits, type Target } from "../target/connection.ts";
import { onInterrupt } from "../target/reaper.ts";
import { HeldBytes } from "../target/lines.ts";
import { RUN_BUDGET_SPENT, type Transcript, type TranscriptEvent } from "../transcript/types.ts";
import { deriveRunFacts } from "../transcript/run-facts.ts";
import { firstAck, sameParse } from "../transcript/view.ts";
import { culpritIn } from "../transcript/crash.ts";
import { decideConsent, withheldReason } from "../verdict/consent.ts";
import { VERSION } from "../meta/version.ts";
import type { Clock } from "../target/clock.ts";

export interface RunOptions {
  target: Target;
  /** Consent granted (--consent): scopes, "egress", or "all". */
  grants: string[];
  checks: readonly CheckDef[];
  /** Per-exchange read deadline. */
  timeoutMs: number;
  /** Global deadline for the whole run. */
  deadlineMs: number;
  /** How long a session's first exchange may wait for the provider's first line (default DEFAULTS.startupTimeoutMs). */
  startupTimeoutMs?: number;
  /** Provider instances alive at once (default DEFAULTS.jobs). */
  jobs?: number;
  limits: Limits;
  /** Directories whose files file provenance may be re-read from (F5). */
  trustRoots: string[];
  /** How far derived stimuli explore (default standard). */
  depth?: Depth;
  /** Told as each probe starts and each session ends: for a progress display, never for the verdict. */
  progress?: Progress;
  /** The clock read deadlines are measured on (default the wall clock): the loop clock for a provider in this process. */
  clock?: Clock;
}

/** What a run may receive before what it let go is collected at once (record). */
const COLLECT_AFTER_BYTES = 16 * 1024 * 1024;

/** What a progress display is told while a run records. */
export interface Progress {
  /** The run's probes, in all: told once, before any starts. */
  planned(probes: number): void;
  started(session: string, probe: string): void;
  /** A probe finished, or was abandoned. */
  done(session: string): void;
}

import { DEFAULTS } from "./defaults.ts";
export { DEFAULTS };
import { type Group, MAX_ATTEMPTS, probesFor, sessionsFor, Slots } from "./plan.ts";
import { abandonedGroup, diedOnFirstRequest, scoutFailure } from "./group-facts.ts";

/** Why no query may be sent to a provider that acked this, or undefined (C1, C2, C4, C6). */
function withholdFor(opts: RunOptions): (ack: Record<string, unknown>) => string | undefined {
  return (ack) => withheldReason(decideConsent(ack, urlOf(opts.target), opts.grants));
}

const urlOf = (t: Target): string | undefined => (t.kind === "http" ? t.url : undefined);

/** Whether a selected check reads the files file provenance names (F5). */
const wantsFiles = (opts: RunOptions): boolean => opts.checks.some((c) => c.probes.includes(PROVENANCE_FILES));
/** The provider's host when it is not this machine: its file: URIs are not ours to read. */
const remoteOf = (t: Target): string | undefined => (t.kind === "http" ? remoteHost(t.url) : undefined);

/** What a group's first session learnt of the provider's start, which every other session waits for: why no other is started, if none is. */
interface Scouting {
  stop?: string;
}

interface SessionRun {
  events: RecordedEvent[];
  /** Where the session stalled, when a fresh session may send what it had not: the index of that probe among those given. */
  resumeAt?: number;
  stall?: Stall;
  /** The provider wrote a line on stdout (or answered over HTTP). */
  heard: boolean;
  /** The session's provider could not be started or reached, or exited before answering anything. */
  silentEnd: boolean;
  /** The canary query went unanswered: the provider answers nothing more, and no further session of the group is started. */
  wedged?: boolean;
}

interface SessionPlan {
  name: string;
  probes: Probe[];
  avoid: ReadonlySet<string>;
  startupMs: number;
  /** Whether a stall at this probe index may be resumed in a fresh session (`events`: what the session recorded). */
  resumable: (stall: Stall, index: number, events: readonly RecordedEvent[]) => boolean;
  /** Told once the opening exchange is over: answered, or not. */
  opened?: (answered: boolean) => void;
  /** A fresh session resuming its group: a valid query goes first, and the group stops if it is not answered. */
  canary?: boolean;
}

async function runSession(plan: SessionPlan, opts: RunOptions, signal: AbortSignal, budget: RunBudget): Promise<SessionRun> {
  const { name, probes } = plan;
  const s = new Session({
    name,
    probe: probes[0]!.name,
    target: opts.target,
    limits: opts.limits,
    timeoutMs: opts.timeoutMs,
    startupMs: plan.startupMs,
    ...(opts.clock ? { clock: opts.clock } : {}),
    avoid: plan.avoid,
    signal,
    withhold: withholdFor(opts),
    budget,
  });
  let resumeAt: number | undefined;
  try {
    let ack: Record<string, unknown> | undefined;
    if (probes[0]!.handshake) {
      s.send(HANDSHAKE_STEP, { type: "handshake", protocol_version: HOST_VERSION });
      const env = await s.reply();
      if (env?.type === "handshake_ack") ack = env;
      plan.opened?.(ack !== undefined);
    }
    const caps = isObj(ack?.capabilities) ? ack.capabilities : {};
    const ctx = {
      ack,
      correlation: caps.correlation === true,
      graceMs: opts.timeoutMs,
      transport: opts.target.kind,
      depth: opts.depth ?? DEFAULT_DEPTH,
      ...(wantsFiles(opts) ? { digestFiles: (uris: readonly string[]) => digestFiles(uris, opts.trustRoots, FILE_LIMITS, remoteOf(opts.target)) } : {}),
    };
    if (plan.canary && ack && withheldReason(decideConsent(ack, urlOf(opts.target), opts.grants)) === undefined) {
      s.enter(probes[0]!);
      s.send(CANARY_STEP, query(ctx, "canary", {}));
      if (!(await s.reply())) {
        // Nothing answered a valid query before any stimulus of this session: what the group had left cannot be sent.
        s.noteCanary(s.stalled?.why ?? "no reply");
        await s.settle();
        return { events: s.events, ...(s.stalled ? { stall: s.stalled } : {}), heard: s.heard, silentEnd: false, wedged: true };
      }
    }
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
      if (!probe.handshake && i === 0) {
        plan.opened?.(s.heard);
      }
      const after = s.stalled;
      // What this session could not send, a fresh one sends: the rest of this probe (past its culprit) and every probe after it.
      if (after && plan.resumable(after, i, s.events)) {
        resumeAt = i;
        break;
      }
    }
    await s.settle();
    return {
      events: s.events,
      ...(resumeAt !== undefined ? { resumeAt } : {}),
      ...(s.stalled ? { stall: s.stalled } : {}),
      heard: s.heard,
      silentEnd: !s.heard && (s.stalled?.kind === "exit" || s.stalled?.kind === "eof" || s.stalled?.kind === "unreachable"),
    };
  } finally {
    opts.progress?.done(name);
    await s.close();
  }
}

/**
 * One group of probes, in as many sessions as it takes: when a stimulus kills
 * or wedges the provider, that stimulus is passed over and what the session
 * had not yet sent is sent in a fresh one, so no other probe loses its
 * stimuli to the crash.
 */
async function runGroup(
  g: Group,
  opts: RunOptions,
  signal: AbortSignal,
  budget: RunBudget,
  slots: Slots,
  startupMs: number,
  opened?: SessionPlan["opened"],
): Promise<{ events: RecordedEvent[]; sessions: Array<[string, string[]]>; silent: boolean; silentEnd: boolean; answered: boolean }> {
  const events: RecordedEvent[] = [];
  const sessions: Array<[string, string[]]> = [];
  const avoid = new Set<string>();
  let from = 0;
  let silent = true;
  let silentEnd = false;
  let firstDeaths = 0;
  let answered = false;
  let retried = false;
  for (let attempt = 1; ; attempt++) {
    const name = attempt === 1 ? g.name : `${g.name}~${attempt}`;
    const probes = g.probes.slice(from);
    const last = attempt >= MAX_ATTEMPTS;
    const run = await slots.run(() =>
      runSession(
        {
          name,
          probes,
          avoid,
          startupMs,
          opened: (ok) => {
            answered ||= ok;
            if (attempt === 1 || retried) opened?.(ok);
          },
          canary: attempt > 1 && !retried,
          resumable: (stall, i, recorded) =>
            !last &&
            // Two sessions in a row that died on the first request they sent: every request kills it, and a third would show nothing new.
            !(firstDeaths > 0 && diedOnFirstRequest(recorded)) &&
            !signal.aborted &&
            (stall.kind === "timeout" || stall.kind === "exit" || stall.kind === "eof") &&
            // A provider that will not even answer the handshake of a fresh session has nothing more to give.
            stall.step !== HANDSHAKE_STEP &&
            (!probes[i]!.atomic || i < probes.length - 1),
        },
        opts,
        signal,
        budget,
      ),
    );
    events.push(...run.events);
    sessions.push([name, [...new Set(run.events.map((e) => e.probe))].filter((p) => probes.some((x) => x.name === p))]);
    if (run.heard) silent = false;
    if (run.silentEnd) silentEnd = true;
    // The scout's provider ended before a word: once more, in case that was its start's own mishap, before the run says it could not run.
    if (opened && attempt === 1 && run.silentEnd && run.stall?.kind !== "unreachable" && !signal.aborted) {
      retried = true;
      continue;
    }
    if (run.wedged) {
      // The probes this group never reached are recorded as not run, and why: never as run and silent.
      const reason = `the provider answered nothing in a fresh session (its opening query, session ${name}), after ${run.stall?.why ?? "no reply"} in an earlier one`;
      for (const p of probes)
        if (!events.some((e) => e.probe === p.name && e.session !== name)) events.push(...abandonedGroup({ name, probes: [p] }, reason).events);
      break;
    }
    if (run.resumeAt === undefined || !run.stall) break;
    firstDeaths = diedOnFirstRequest(run.events) ? firstDeaths + 1 : 0;
    const stalled = probes[run.resumeAt]!;
    // The line the provider was reading when it died or wedged is passed over from now on (never the handshake).
    const blamed = culpritIn(run.events);
    if (blamed) avoid.add(stimulusKey(blamed.probe, blamed.step));
    // An atomic probe is not run again: the fresh session starts with the probe after it.
    from += run.resumeAt + (stalled.atomic ? 1 : 0);
    if (from >= g.probes.length) break;
  }
  return { events, sessions, silent, silentEnd, answered };
}

/**
 * Run every probe the checks need. The first session scouts: until its
 * provider has answered, no other is started, so a provider that never
 * starts, or never answers, costs one session, not ten. Then the sessions
 * run at once, at most `jobs` providers alive at a time; one whose provider
 * dies or wedges on a stimulus is resumed in a fresh session without it.
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
    const groups = sessionsFor(probes);
    opts.progress?.planned(groups.reduce((n, g) => n + g.probes.length, 0));
    // A run that has received more than it keeps cannot be completed: every session ends then, not at its own timeout.
    const budget = new RunBudget(opts.limits.maxLineBytes, {
      onSpent: (limit) => {
        if (!ctl.signal.aborted) ctl.abort(`stopped: ${RUN_BUDGET_SPENT}, across all its sessions (${limit})`);
      },
    });
    // What all sessions may hold at once in lines not yet complete: two line caps, 32 MiB at least.
    const held = opts.limits.held ?? new HeldBytes(Math.max(32 * 1024 * 1024, 2 * opts.limits.maxLineBytes));
    const run = { ...opts, limits: { ...opts.limits, held } };
    const slots = new Slots(Math.max(1, opts.jobs ?? DEFAULTS.jobs));
    const startupMs = Math.max(opts.timeoutMs, opts.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs);
    // The first session scouts: the others start once it has been answered. Each still gets the whole startup
    // deadline: a provider that started in a second once may take twelve the next time (four loading at once), and a
    // foreign handshake or a decorated one left unanswered by a provider still loading must not read as a hang.
    let release!: (s: Scouting) => void;
    const scouted = new Promise<Scouting>((r) => (release = r));
    const opened = (answered: boolean): void => {
      if (answered) release({});
    };
    const perGroup = await Promise.all(
      groups.map(async (g, i) => {
        if (i === 0) {
          let r: Awaited<ReturnType<typeof runGroup>> | undefined;
          try {
            r = await runGroup(g, run, ctl.signal, budget, slots, startupMs, opened);
            return r;
          } finally {
            release(r ? { stop: scoutFailure(g, r) } : { stop: "the first session could not be run" });
          }
        }
        const scout = await scouted;
        if (scout.stop) return abandonedGroup(g, scout.stop);
        return runGroup(g, run, ctl.signal, budget, slots, startupMs);
      }),
    );
    // A run that received more than a few answers' worth let most of it go (lines past the budget, parsed only to count
    // their frames; a line's pieces): collected before scoring allocates, or scoring's peak sits on top of three or four
    // 15 MiB answers no longer held. A run of an honest provider's size skips it: a full collection costs more than it frees.
    if (budget.received > COLLECT_AFTER_BYTES) (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun?.gc(true);
    const events = perGroup.flatMap((r) => r.events);
    const files = wantsFiles(opts) ? collectFiles(events, opts.trustRoots, FILE_LIMITS, remoteOf(opts.target)) : [];
    const recorded = [...events, ...files].map((e, i): TranscriptEvent => {
      const numbered = { n: i + 2, ...e };
      sameParse(e, numbered);
      return numbered;
    });
    return {
      header: {
        cgp_conform_transcript: 1,
        tool_version: VERSION,
        host_version: HOST_VERSION,
        target: describeTarget(opts.target),
        timeout_ms: opts.timeoutMs,
        probes: [...probes.map((p) => p.name), ...(wantsFiles(opts) ? [PROVENANCE_FILES.name] : [])],
        sessions: Object.fromEntries([...perGroup.flatMap((r) => r.sessions), ...(wantsFiles(opts) ? [[PROVENANCE_FILES.name, [PROVENANCE_FILES.name]]] : [])]),
        trust_roots: opts.trustRoots,
        depth: opts.depth ?? DEFAULT_DEPTH,
        started_at: started,
        duration_ms: Math.round(performance.now() - t0),
        ...(interrupted ? { interrupted } : {}),
        instances: { started: slots.started, peak: slots.peak, jobs: slots.limit },
        // Consent is decided once, on the first handshake_ack recorded, and the decision is part of the record.
        consent: decideConsent(firstAck(events), urlOf(opts.target), opts.grants),
        // What decides whether the run could be made is recorded once, here, and read by the report as a fact.
        run_facts: deriveRunFacts(recorded),
      },
      events: recorded,
    };
  } finally {
    clearTimeout(timer);
    unhook();
  }
}
