/**
 * The verdict of a host run (`cgp-conform host`), decided here as a provider
 * run's is in report.ts: the same RunReport, so every report format, the
 * baseline and the exit code treat both alike.
 */
import { VERSION } from "../meta/version.ts";
import { HOST_VERSION } from "../math/version.ts";
import type { HostTranscript } from "../transcript/host.ts";
import type { CheckResult } from "./status.ts";
import { REPORT_VERSION, type RunReport } from "./report.ts";
import { decide } from "./decide.ts";

/** Why the run could not be made, in words, from the facts its header records: interrupted, no scenario ran, the host never started or never reached its provider. */
function couldNotRun(h: HostTranscript["header"]): string | undefined {
  if (h.interrupted) return `the run was interrupted by ${h.interrupted} before it finished: the verdicts are of what was observed until then`;
  if (h.scenarios.every((s) => s.skipped !== undefined)) return "no scenario ran";
  const { never_started: never, never_connected } = h.run_facts;
  if (never?.how === "spawn-error") return `the host could not be started: ${never.error}`;
  if (never?.how === "exit")
    return `the host could not be started: its command exited ${never.exit_code} (${never.exit_code === 127 ? 'the shell\'s "command not found"' : 'the shell\'s "not executable"'}) in every scenario, before reaching its provider`;
  if (never_connected) {
    const placeholder = h.transport === "stdio" ? "{provider}" : "{url}";
    return `the host never reached the provider it was given in any scenario: its command line must start the provider cgp-conform substitutes for ${placeholder} (or read it from the environment), and talk to it`;
  }
  return undefined;
}

export function buildHostReport(t: HostTranscript, results: CheckResult[]): RunReport {
  const reason = couldNotRun(t.header);
  return {
    report_version: REPORT_VERSION,
    tool: { name: "cgp-conform", version: VERSION },
    target: { kind: "host", command: t.header.command, transport: t.header.transport },
    host_version: HOST_VERSION,
    timeout_ms: t.header.timeout_ms,
    started_at: t.header.started_at,
    ...(t.header.duration_ms !== undefined ? { duration_ms: t.header.duration_ms } : {}),
    could_not_run: reason !== undefined,
    ...(reason ? { could_not_run_reason: reason } : {}),
    ...(t.header.interrupted ? { interrupted: t.header.interrupted } : {}),
    consent: { needed: [], granted: [], missing: [], receipts: [] },
    usage: [],
    ...decide(results, reason !== undefined ? { couldNotRun: reason } : {}),
  };
}
