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
  /** Directories file provenance may be re-read from, besides the working directory (the provider's). */
  trustRoots?: string[];
}

/** Score a transcript into a report (live runs and replays alike). */
export function reportOf(transcript: Transcript, checks: readonly CheckDef[] = CHECKS): RunReport {
  const results = score(transcript, checks);
  const sessions = new Set(transcript.events.filter((e) => e.dir !== "file" && e.note !== "files").map((e) => e.session));
  const spawnFailed = new Set(transcript.events.filter((e) => e.note === "spawn-error").map((e) => e.session));
  const couldNotRun = sessions.size > 0 && spawnFailed.size === sessions.size;
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
    trustRoots: [process.cwd(), ...(opts.trustRoots ?? [])],
  });
  return { transcript, report: reportOf(transcript, checks) };
}
