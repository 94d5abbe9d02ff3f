import type { CheckResult, Status } from "../../checks/kit/check.ts";
import { consentNeeded, missingConsent, receipts, type ConsentReceipt } from "./consent.ts";
import type { Transcript, TranscriptHeader } from "../transcript/types.ts";
import { envelopes, type Obj } from "../transcript/view.ts";
import { usageReports, type UsageReport } from "../engine/usage.ts";
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
  /** The run could not be made in full: the provider could not be started or reached, or needed consent it was not given. */
  could_not_run: boolean;
  could_not_run_reason?: string;
  /** C1, C2, C6: what needed consent, what was granted (with its receipts, context-reuse §3), what was missing. */
  consent: { needed: string[]; why?: string; granted: string[]; missing: string[]; receipts: ConsentReceipt[] };
  /** UR1: cgp-conform's own usage report for each query it executed. */
  usage: UsageReport[];
  summary: Summary;
  results: CheckResult[];
  /** The gating policy applied (--strict, --only/--skip, --baseline), when any. */
  policy?: import("./policy.ts").PolicyRecord;
}

export function summarize(results: CheckResult[]): Summary {
  const s: Summary = { total: results.length, pass: 0, fail: 0, warn: 0, info: 0, skip: 0 };
  for (const r of results) s[r.status satisfies Status]++;
  return s;
}

function firstAck(t: Transcript): Obj | undefined {
  return envelopes(t.events).find(({ e, env }) => e.dir === "recv" && env.type === "handshake_ack")?.env;
}

function couldNotRun(t: Transcript, missing: string[]): string | undefined {
  const sessions = new Set(t.events.filter((e) => e.dir !== "file" && e.note !== "files").map((e) => e.session));
  const unreachable = t.events.filter((e) => e.note === "spawn-error" || e.note === "connect-error");
  if (sessions.size > 0 && new Set(unreachable.map((e) => e.session)).size === sessions.size) {
    return `the provider could not be ${unreachable[0]!.note === "spawn-error" ? "started" : "reached"}: ${unreachable[0]!.reason}`;
  }
  if (missing.length > 0) return `consent is required for ${missing.join(", ")} (C1, C2, C6): no query payload was sent; grant it with ${missing.map((m) => `--consent ${m}`).join(" ")} or --consent all`;
  return undefined;
}

export function buildReport(t: Transcript, results: CheckResult[]): RunReport {
  const summary = summarize(results);
  const ack = firstAck(t);
  const header = t.header;
  const need = consentNeeded(ack, header.target.kind === "http" ? header.target.url : undefined);
  const grants = header.consent?.grants ?? [];
  const missing = missingConsent(need, grants);
  const reason = couldNotRun(t, missing);
  return {
    tool: { name: "cgp-conform", version: VERSION },
    target: header.target,
    host_version: header.host_version,
    timeout_ms: header.timeout_ms,
    conformant: summary.fail === 0 && reason === undefined,
    could_not_run: reason !== undefined,
    ...(reason ? { could_not_run_reason: reason } : {}),
    consent: {
      needed: need.scopes,
      ...(need.why ? { why: need.why } : {}),
      granted: need.scopes.filter((s) => !missing.includes(s)),
      missing,
      receipts: receipts(ack, need, grants, header.started_at),
    },
    usage: usageReports(t),
    summary,
    results,
  };
}

/** Exit codes are a contract: 0 conformant, 1 not conformant, 2 usage error, 3 could not run. */
export function exitCodeOf(r: RunReport): 0 | 1 | 3 {
  if (r.could_not_run) return 3;
  // With a baseline the run is green when exactly the expected checks fail (or fewer).
  if (r.policy?.baseline) return r.policy.baseline.ok ? 0 : 1;
  return r.conformant ? 0 : 1;
}
