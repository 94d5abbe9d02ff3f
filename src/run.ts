import { CHECKS } from "../checks/index.ts";
import type { CheckDef } from "./check.ts";
import { DEFAULTS, record, score } from "./engine.ts";
import { buildReport, type RunReport } from "./report/result.ts";
import type { StdioTarget } from "./target/stdio.ts";
import type { Transcript } from "./transcript/types.ts";

export interface SuiteOptions {
  timeoutMs?: number;
  deadlineMs?: number;
  maxLineBytes?: number;
  checks?: readonly CheckDef[];
}

/** Score a transcript into a report (live runs and replays alike). */
export function reportOf(transcript: Transcript, checks: readonly CheckDef[] = CHECKS): RunReport {
  const results = score(transcript, checks);
  const probes = new Set(transcript.events.map((e) => e.probe));
  const spawnFailed = new Set(transcript.events.filter((e) => e.note === "spawn-error").map((e) => e.probe));
  const couldNotRun = probes.size > 0 && spawnFailed.size === probes.size;
  return buildReport(transcript.header, results, couldNotRun);
}

export async function runSuite(target: StdioTarget, opts: SuiteOptions = {}): Promise<{ transcript: Transcript; report: RunReport }> {
  const checks = opts.checks ?? CHECKS;
  const transcript = await record({
    target,
    checks,
    timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
    deadlineMs: opts.deadlineMs ?? DEFAULTS.deadlineMs,
    limits: { ...DEFAULTS.limits, ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}) },
  });
  return { transcript, report: reportOf(transcript, checks) };
}
