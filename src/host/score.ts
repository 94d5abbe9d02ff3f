import { judgeScore } from "../../checks/kit/evaluate.ts";
import type { HostCheckDef, HostScoreInput } from "../../checks/kit/host.ts";
import { hostViews, type HostTranscript } from "../transcript/host.ts";
import type { CheckResult } from "../verdict/status.ts";

/** One host check over a host transcript: the same statuses, grouping and vacuity rules as a provider check's. */
export function evaluateHost(check: HostCheckDef, input: HostScoreInput): CheckResult {
  const base = { id: check.id, title: check.title, level: check.level, requirement: check.requirement };
  const views = check.scenarios.map((s) => input.scenario(s));
  const ran = views.filter((v) => v.ran);
  if (ran.length === 0) {
    const why = views.map((v) => (v.record?.skipped ? `${v.name}: ${v.record.skipped}` : `${v.name} was not run`)).join("; ");
    return { ...base, status: "skip", reason: `none of the scenarios it reads ran (${why})`, untestable: false, evidence: [] };
  }
  const broken = ran.map((v) => v.brokenPrecondition()).filter((b): b is NonNullable<typeof b> => b !== undefined);
  // A scenario whose precondition broke leaves the check nothing it can read across scenarios.
  return judgeScore({ base, of: "host", broken, allLost: broken.length > 0, score: () => check.score(input) });
}

/** Score a host transcript: pure, so a live run and a replay give the same verdicts. */
export function scoreHost(transcript: HostTranscript, checks: readonly HostCheckDef[]): CheckResult[] {
  const view = hostViews(transcript);
  const command = transcript.header.command.join(" ");
  const span = new Map<string, number>();
  for (const e of transcript.events) span.set(e.scenario, Math.max(span.get(e.scenario) ?? 0, e.t));
  return checks.map((c) => {
    const input: HostScoreInput = {
      scenario: (spec) => {
        if (!c.scenarios.includes(spec)) throw new Error(`host check ${c.id} reads scenario ${spec.name}, which it does not declare`);
        return view(spec);
      },
      transport: transcript.header.transport,
      names: (p) => command.includes(p),
    };
    const time = c.scenarios.reduce((m, s) => Math.max(m, span.get(s.name) ?? 0), 0);
    return { ...evaluateHost(c, input), time_ms: Math.round(time) };
  });
}
