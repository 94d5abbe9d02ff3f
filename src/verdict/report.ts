import { decideConsent, receipts, withheldReason, type ConsentDecision, type ConsentReceipt } from "./consent.ts";
import type { Transcript, TranscriptHeader } from "../transcript/types.ts";
import type { NeverStarted } from "../transcript/run-facts.ts";
import { firstAck } from "../transcript/view.ts";
import { VERSION } from "../meta/version.ts";
import { type Obj } from "../protocol/envelope.ts";
import { type CheckResult } from "./status.ts";
import { usageReports, type UsageReport } from "./usage.ts";
import { decide, type PolicyRecord, type Reason, type RunOutcome, type Summary } from "./decide.ts";
import { stderrTail, type StderrTail } from "./stderr.ts";

/** The version of the report's shape (schema/report.schema.json): any change to the shape is a new version. */
export const REPORT_VERSION = 7;

export type { PolicyRecord, Summary } from "./decide.ts";
export { summarize } from "./decide.ts";

/** A host under test: its command line as given (placeholders unexpanded), and the binding its scenarios were served over. */
export interface HostTarget {
  kind: "host";
  command: string[];
  transport: "stdio" | "http";
}

/** A scored run, as every report format renders it. Reports never decide a verdict. */
export interface RunReport {
  report_version: typeof REPORT_VERSION;
  tool: { name: "cgp-conform"; version: string };
  /** What was tested: a provider (stdio, http), or a host run through the scenarios (host). */
  target: TranscriptHeader["target"] | HostTarget;
  host_version: string;
  timeout_ms: number;
  /** When the run started (UTC), and how long it spent with the provider, in ms (absent for a transcript recorded before durations). */
  started_at: string;
  duration_ms?: number;
  /** The spec's verdict: no check failed, every rule observed, the run made in full. A baseline does not change it. */
  conformant: boolean;
  /** What gates the pipeline: the verdict, or with a baseline, its judgement of the verdict (decide.ts). */
  outcome: RunOutcome;
  /** The exit code the outcome makes (an output that could not be written makes the process exit 3 beside it). */
  exit_code: 0 | 1 | 3;
  /** Why the outcome is what it is, as data: renderers put it in words. */
  reasons: Reason[];
  /** The run could not be made in full: the provider could not be started or reached, needed consent it was not given, or a signal stopped the run. */
  could_not_run: boolean;
  could_not_run_reason?: string;
  /** Set when a signal stopped the run before it finished: the signal. The verdicts are of what was observed until then. */
  interrupted?: string;
  /** C1, C2, C6: what needed consent, what was granted (with its receipts, context-reuse §3), what was missing. */
  consent: { needed: string[]; why?: string; granted: string[]; missing: string[]; receipts: ConsentReceipt[] };
  /** How far derived stimuli explored (--depth), how many lines the run sent and received; absent for a transcript recorded before depths. */
  exploration?: { depth: "quick" | "standard" | "exhaustive"; exchanges: number; received: number };
  /** UR1: cgp-conform's own usage report for each query it executed. */
  usage: UsageReport[];
  summary: Summary;
  results: CheckResult[];
  /** The gating policy applied (--strict, --only/--skip, --baseline), when any. */
  policy?: PolicyRecord;
  /** Provider instances (sessions) the run started, and the most alive at once, within the bound it kept (--jobs). */
  instances?: { started: number; peak: number; jobs: number };
  /** The last lines a stdio provider wrote to stderr, when it wrote any. */
  provider_stderr?: StderrTail;
}

/** Why the run could not be made in full, in words, from the facts its header records (run-facts.ts) and its consent decision. */
function couldNotRun(h: TranscriptHeader, consent: ConsentDecision): string | undefined {
  if (h.interrupted) return `the run was interrupted by ${h.interrupted} before it finished: the verdicts are of what was observed until then`;
  const { budget_spent: spent, never_started: never } = h.run_facts;
  if (spent) return `${spent.reason} (line ${spent.line}); the verdicts are of what was kept until then`;
  if (never) return neverStartedWords(never);
  return withheldReason(consent);
}

/**
 * Why the provider never ran, when in every session that was started it could
 * not be started or reached, or ended by itself before writing a line: a
 * missing program, a typo in a path, an interpreter's own error. That is a
 * run that could not be made, not a provider that failed the checks.
 */
function neverStartedWords(n: NeverStarted): string {
  const where = n.sessions === 1 ? "" : ` (in each of ${n.sessions} sessions)`;
  if (n.how === "spawn-error") return `the provider could not be started${where}: ${n.error}`;
  if (n.how === "connect-error") return `the provider could not be reached${where}: ${n.error}`;
  const code = n.exit_code;
  const shell = code === 127 ? ' (the shell\'s "command not found")' : code === 126 ? ' (the shell\'s "not executable")' : "";
  return `the provider never started: it ${n.signal ? `was killed by ${n.signal}` : `exited with code ${code}${shell}`} before writing a line${where}`;
}

/** The consent decision the run recorded; a transcript from before it was recorded gets the same decision made again. */
function consentOf(t: Transcript, ack: Obj | undefined): ConsentDecision {
  const c = t.header.consent;
  const grants = c?.grants ?? [];
  if (c && Array.isArray(c.needed) && Array.isArray(c.granted) && Array.isArray(c.missing)) {
    return { grants, needed: c.needed, ...(c.why ? { why: c.why } : {}), granted: c.granted, missing: c.missing };
  }
  return decideConsent(ack, t.header.target.kind === "http" ? t.header.target.url : undefined, grants);
}

/** A provider run's report: its facts read from the transcript, its verdict from decide(); renderers only render it. */
export function buildReport(t: Transcript, results: CheckResult[]): RunReport {
  const ack = firstAck(t.events);
  const header = t.header;
  const consent = consentOf(t, ack);
  const reason = couldNotRun(header, consent);
  const stderr = stderrTail(t);
  return {
    report_version: REPORT_VERSION,
    tool: { name: "cgp-conform", version: VERSION },
    target: header.target,
    host_version: header.host_version,
    timeout_ms: header.timeout_ms,
    started_at: header.started_at,
    ...(header.duration_ms !== undefined ? { duration_ms: header.duration_ms } : {}),
    could_not_run: reason !== undefined,
    ...(reason ? { could_not_run_reason: reason } : {}),
    ...(header.interrupted ? { interrupted: header.interrupted } : {}),
    consent: {
      needed: consent.needed,
      ...(consent.why ? { why: consent.why } : {}),
      granted: consent.granted,
      missing: consent.missing,
      receipts: receipts(ack, consent, header.started_at),
    },
    ...(header.depth
      ? {
          exploration: {
            depth: header.depth,
            exchanges: t.events.filter((e) => e.dir === "send").length,
            received: t.events.filter((e) => e.dir === "recv").length,
          },
        }
      : {}),
    ...(header.instances ? { instances: header.instances } : {}),
    usage: usageReports(t),
    ...decide(results, reason !== undefined ? { couldNotRun: reason } : {}),
    ...(stderr ? { provider_stderr: stderr } : {}),
  };
}
