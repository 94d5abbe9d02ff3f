import type { ProbeView } from "../../src/transcript/view.ts";

/** Keyword strength of a requirement, from the spec's MUST / SHOULD / MAY. */
export type Level = "MUST" | "SHOULD" | "MAY";
export type Status = "pass" | "fail" | "warn" | "info" | "skip";

/** One observation a check makes: a rule held, or was broken, at these lines. */
export interface Evidence {
  ok: boolean;
  message: string;
  expected?: string;
  actual?: string;
  /** Transcript line numbers that show it. */
  lines: number[];
  /** A sub-rule of weaker strength than the check's own (e.g. R1's SHOULD). */
  level?: Level;
  /** The observation could not be made because a precondition broke. */
  untestable?: boolean;
}

export interface ScoreInput {
  probe(name: string): ProbeView;
  /** Envelope-schema violations owned by an anchor (interop mode), and how many envelopes were validated. */
  schema(anchor: string): Evidence[];
  validated(): number;
  /** The binding the transcript was recorded over. */
  transport: "stdio" | "http";
}

export type Score = Evidence[] | { skip: string };

export interface CheckDef {
  /** The spec anchor; also the file name under checks/. */
  id: string;
  title: string;
  level: Level;
  /** The spec sentence this check enforces, quoted. */
  requirement: string;
  probes: string[];
  /** The check scores a missing handshake_ack itself (H1) instead of calling it untestable. */
  scoresHandshake?: boolean;
  score(input: ScoreInput): Score;
}

/** One observation per distinct finding, with the lines of all its repeats. */
export function mergeSame(evidence: Evidence[]): Evidence[] {
  const byKey = new Map<string, Evidence>();
  for (const e of evidence) {
    const key = JSON.stringify([e.ok, e.level, e.untestable, e.message, e.expected, e.actual]);
    const seen = byKey.get(key);
    if (seen) seen.lines = [...new Set([...seen.lines, ...e.lines])].sort((a, b) => a - b);
    else byKey.set(key, { ...e, lines: [...e.lines] });
  }
  return [...byKey.values()];
}

export function defineCheck(def: CheckDef): CheckDef {
  return def;
}

export interface EvidenceResult extends Evidence {
  status: Status;
}

export interface CheckResult {
  id: string;
  title: string;
  level: Level;
  status: Status;
  /** Set for skip: why the check does not apply. */
  reason?: string;
  /** A broken precondition made the verdict a fail without observing the rule. */
  untestable: boolean;
  evidence: EvidenceResult[];
}

/** The one place a requirement's strength becomes a status. */
export function statusOf(e: Evidence, checkLevel: Level): Status {
  if (e.untestable) return "fail";
  if (e.ok) return "pass";
  switch (e.level ?? checkLevel) {
    case "MUST":
      return "fail";
    case "SHOULD":
      return "warn";
    case "MAY":
      return "info";
  }
}

const severity: Record<Status, number> = { skip: 0, pass: 1, info: 2, warn: 3, fail: 4 };

export function worst(statuses: Status[]): Status {
  return statuses.reduce<Status>((a, b) => (severity[b] > severity[a] ? b : a), "pass");
}

export function evaluate(check: CheckDef, input: ScoreInput): CheckResult {
  const base = { id: check.id, title: check.title, level: check.level };
  const broken = check.probes
    .map((p) => input.probe(p).brokenPrecondition(!check.scoresHandshake))
    .filter((b): b is NonNullable<typeof b> => b !== undefined);
  if (broken.length > 0) {
    const evidence = broken.map((b) => ({ ok: false, untestable: true, message: b.message, lines: b.lines, status: "fail" as const }));
    return { ...base, status: "fail", untestable: true, evidence };
  }
  const score = check.score(input);
  // A schema violation of a field this anchor owns is this check's failure, even where its own rule found nothing to score.
  const owned = input.schema(check.id);
  if (!Array.isArray(score) && owned.length === 0) return { ...base, status: "skip", reason: score.skip, untestable: false, evidence: [] };
  const all = [...(Array.isArray(score) ? score : []), ...owned];
  if (all.length === 0) {
    // A check that observed nothing must not pass: that would be a vacuous verdict.
    throw new Error(`check ${check.id} produced no evidence and no skip reason`);
  }
  const evidence = mergeSame(all).map((e) => ({ ...e, status: statusOf(e, check.level) }));
  return {
    ...base,
    status: worst(evidence.map((e) => e.status)),
    untestable: evidence.some((e) => e.untestable === true),
    evidence,
  };
}
