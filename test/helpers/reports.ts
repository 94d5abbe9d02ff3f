import { REPORT_VERSION, type RunReport } from "../../src/verdict/report.ts";
import { decide } from "../../src/verdict/decide.ts";
import { VERSION } from "../../src/meta/version.ts";
import { cli } from "./live.ts";
import { type CheckResult, type EvidenceResult } from "../../src/verdict/status.ts";

const runs = new Map<string, Promise<RunReport>>();

/** A report of a real run of the CLI, once per argument list. */
export function real(args: string[]): Promise<RunReport> {
  const key = args.join(" ");
  if (!runs.has(key))
    runs.set(
      key,
      cli(args).then((r) => JSON.parse(r.stdout) as RunReport),
    );
  return runs.get(key)!;
}

/**
 * Live runs from source start a bun process per session; on a loaded 2-core
 * machine that can take seconds, so the honest runs get room (a timeout only
 * costs time when something hangs).
 */
export const LIVE_TIMEOUT = ["--timeout", "20000"] as const;

export const RUNS = {
  ok: ["reference", "--json", ...LIVE_TIMEOUT],
  b3: ["reference", "--misbehave", "B3-utf16-length", "--json", ...LIVE_TIMEOUT],
  dead: ["stdio", "--json", "--", "/nonexistent/cgp-provider"],
} as const;

/** The three real runs every renderer is tried on: conformant, one failure, could not run. */
export async function realRuns(): Promise<{ ok: RunReport; b3: RunReport; dead: RunReport }> {
  const [ok, b3, dead] = await Promise.all([real([...RUNS.ok]), real([...RUNS.b3]), real([...RUNS.dead])]);
  return { ok, b3, dead };
}

/** A report built by hand, for edge cases no real run produces. */
export function synthetic(results: CheckResult[], over: Partial<RunReport> = {}): RunReport {
  const facts = over.could_not_run ? { couldNotRun: over.could_not_run_reason ?? "the run could not be made" } : {};
  return {
    report_version: REPORT_VERSION,
    tool: { name: "cgp-conform", version: VERSION },
    target: { kind: "stdio", command: ["./provider"] },
    host_version: "contextgraph/1.0",
    timeout_ms: 5000,
    started_at: "2026-12-01T00:00:00Z",
    could_not_run: false,
    consent: { needed: [], granted: [], missing: [], receipts: [] },
    usage: [],
    ...decide(results, facts),
    ...over,
  };
}

export const ev = (status: EvidenceResult["status"], message: string, more: Partial<EvidenceResult> = {}): EvidenceResult => ({
  ok: status === "pass",
  status,
  code: "X1.finding",
  params: {},
  message,
  lines: [2],
  ...more,
});
export const check = (id: string, status: CheckResult["status"], evidence: EvidenceResult[], more: Partial<CheckResult> = {}): CheckResult => ({
  id,
  title: `title of ${id}`,
  level: "MUST",
  requirement: `requirement of ${id}`,
  status,
  untestable: false,
  evidence,
  ...more,
});
