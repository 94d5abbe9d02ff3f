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

/** Why the run could not be made: the host never started, or never reached the provider it was given, in any scenario. */
function couldNotRun(t: HostTranscript): string | undefined {
  if (t.header.interrupted) return `the run was interrupted by ${t.header.interrupted} before it finished: the verdicts are of what was observed until then`;
  const ran = t.header.scenarios.filter((s) => s.skipped === undefined).map((s) => s.name);
  if (ran.length === 0) return "no scenario ran";
  const of = (name: string) => t.events.filter((e) => e.scenario === name);
  const spawn = ran.map((n) => of(n).find((e) => e.note === "spawn-error")).filter((e) => e !== undefined);
  if (spawn.length === ran.length) return `the host could not be started: ${(spawn[0]!.reason ?? "").split("\n")[0]}`;
  const unstarted = ran.map((n) => {
    const ev = of(n);
    const exit = ev.find((e) => e.note === "host-exit");
    return !ev.some((e) => e.dir === "host") && (exit?.exitCode === 126 || exit?.exitCode === 127) ? exit.exitCode : undefined;
  });
  if (unstarted.every((c) => c !== undefined)) {
    const code = unstarted[0]!;
    return `the host could not be started: its command exited ${code} (${code === 127 ? 'the shell\'s "command not found"' : 'the shell\'s "not executable"'}) in every scenario, before reaching its provider`;
  }
  if (ran.every((n) => !of(n).some((e) => e.note === "connected"))) {
    const placeholder = t.header.transport === "stdio" ? "{provider}" : "{url}";
    return `the host never reached the provider it was given in any scenario: its command line must start the provider cgp-conform substitutes for ${placeholder} (or read it from the environment), and talk to it`;
  }
  return undefined;
}

export function buildHostReport(t: HostTranscript, results: CheckResult[]): RunReport {
  const reason = couldNotRun(t);
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
