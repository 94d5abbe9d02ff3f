/**
 * Keyword strength of a requirement, from the spec's MUST / SHOULD / MAY.
 * "NONE": an outcome the spec states with no keyword; a shortfall warns, and
 * stays a warning under --strict, which promotes only real SHOULDs.
 */
export type Level = "MUST" | "SHOULD" | "MAY" | "NONE";
export type Status = "pass" | "fail" | "warn" | "info" | "skip";

/** What a status is decided from: whether the rule held, at what strength, and whether it could be observed at all. */
export interface Observation {
  ok: boolean;
  /** A sub-rule of weaker strength than the check's own (e.g. R1's SHOULD, or an outcome stated with no keyword). */
  level?: Level;
  /** The observation could not be made because a precondition broke. */
  untestable?: boolean;
}

/** The one place a requirement's strength becomes a status. */
export function statusOf(e: Observation, checkLevel: Level): Status {
  if (e.untestable) return "fail";
  if (e.ok) return "pass";
  switch (e.level ?? checkLevel) {
    case "MUST":
      return "fail";
    case "SHOULD":
    case "NONE":
      return "warn";
    case "MAY":
      return "info";
  }
}

const severity: Record<Status, number> = { skip: 0, pass: 1, info: 2, warn: 3, fail: 4 };

export function worst(statuses: Status[]): Status {
  return statuses.reduce<Status>((a, b) => (severity[b] > severity[a] ? b : a), "pass");
}

/** What a check saw, as recorded: the observation and the words and lines that show it. */
export interface EvidenceRecord extends Observation {
  message: string;
  expected?: string;
  actual?: string;
  /** Transcript line numbers that show it. */
  lines: number[];
  /** Set when this finding stands for several of one defect (see groupAlike): how many. */
  occurrences?: number;
  /** With occurrences: the next few messages of the group. */
  also?: string[];
}

export interface EvidenceResult extends EvidenceRecord {
  status: Status;
}

export interface CheckResult {
  id: string;
  title: string;
  level: Level;
  /** The spec sentence the check enforces, so every renderer can quote it without the registry. */
  requirement: string;
  status: Status;
  /** Set for skip: why the check does not apply. */
  reason?: string;
  /** A broken precondition made the verdict a fail without observing the rule. */
  untestable: boolean;
  evidence: EvidenceResult[];
  /** How long the exchanges it judges took: the longest span, first event to last, of the probes it reads, in ms (from the transcript, so a replay says the same). */
  time_ms?: number;
}
