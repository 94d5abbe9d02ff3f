import { CHECKS } from "../../checks/index.ts";
import { type CheckDef } from "../../checks/kit/check.ts";
import type { Progress } from "./record.ts";
import { score } from "./score.ts";
import { buildReport, type RunReport } from "../verdict/report.ts";
import type { Target } from "../target/connection.ts";
import type { Transcript } from "../transcript/types.ts";
import type { Depth } from "../protocol/probes.ts";
import type { Clock } from "../target/clock.ts";

export interface SuiteOptions {
  /** Consent granted (--consent): scopes, "egress", or "all". */
  grants?: string[];
  timeoutMs?: number;
  /** How long a session's first exchange may wait for the provider's first line. */
  startupTimeoutMs?: number;
  /** Provider instances alive at once. */
  jobs?: number;
  deadlineMs?: number;
  maxLineBytes?: number;
  checks?: readonly CheckDef[];
  /** Directories file provenance may be re-read from, besides the working directory (the provider's). */
  trustRoots?: string[];
  /** How far derived stimuli explore (default standard). */
  depth?: Depth;
  /** A progress display to tell as probes start and end. */
  progress?: Progress;
  /** The clock read deadlines are measured on (default the wall clock). */
  clock?: Clock;
}

/** Score a transcript into a report (live runs and replays alike). */
export function reportOf(transcript: Transcript, checks: readonly CheckDef[] = CHECKS): RunReport {
  const results = score(transcript, checks);
  return buildReport(transcript, results);
}

export async function runSuite(target: Target, opts: SuiteOptions = {}): Promise<{ transcript: Transcript; report: RunReport }> {
  const checks = opts.checks ?? CHECKS;
  // Loaded here, not above: a replay scores with reportOf and needs none of the transports a live run spawns and dials.
  const { DEFAULTS, record } = await import("./record.ts");
  const transcript = await record({
    target,
    grants: opts.grants ?? [],
    checks,
    timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
    deadlineMs: opts.deadlineMs ?? DEFAULTS.deadlineMs,
    ...(opts.startupTimeoutMs !== undefined ? { startupTimeoutMs: opts.startupTimeoutMs } : {}),
    ...(opts.jobs !== undefined ? { jobs: opts.jobs } : {}),
    limits: { ...DEFAULTS.limits, ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}) },
    trustRoots: [process.cwd(), ...(opts.trustRoots ?? [])],
    ...(opts.depth ? { depth: opts.depth } : {}),
    ...(opts.progress ? { progress: opts.progress } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  return { transcript, report: reportOf(transcript, checks) };
}
