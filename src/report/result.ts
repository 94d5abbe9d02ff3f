import type { CheckResult, Status } from "../check.ts";
import type { TranscriptHeader } from "../transcript/types.ts";
import { VERSION } from "../version.ts";

export interface Summary {
  total: number;
  pass: number;
  fail: number;
  warn: number;
  info: number;
  skip: number;
}

/** A scored run, as every report format renders it. Reports never decide a verdict. */
export interface RunReport {
  tool: { name: "cgp-conform"; version: string };
  target: TranscriptHeader["target"];
  host_version: string;
  timeout_ms: number;
  conformant: boolean;
  /** No probe could start the provider at all. */
  could_not_run: boolean;
  summary: Summary;
  results: CheckResult[];
}

export function summarize(results: CheckResult[]): Summary {
  const s: Summary = { total: results.length, pass: 0, fail: 0, warn: 0, info: 0, skip: 0 };
  for (const r of results) s[r.status satisfies Status]++;
  return s;
}

export function buildReport(header: TranscriptHeader, results: CheckResult[], couldNotRun: boolean): RunReport {
  const summary = summarize(results);
  return {
    tool: { name: "cgp-conform", version: VERSION },
    target: header.target,
    host_version: header.host_version,
    timeout_ms: header.timeout_ms,
    conformant: summary.fail === 0 && !couldNotRun,
    could_not_run: couldNotRun,
    summary,
    results,
  };
}

/** Exit codes are a contract: 0 conformant, 1 not conformant, 2 usage error, 3 could not run. */
export function exitCodeOf(r: RunReport): 0 | 1 | 3 {
  if (r.could_not_run) return 3;
  return r.conformant ? 0 : 1;
}
