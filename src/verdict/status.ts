/**
 * Keyword strength of a requirement, from the spec's MUST / SHOULD / MAY.
 * "NONE": an outcome the spec states with no keyword; a shortfall warns, and
 * stays a warning under --strict, which promotes only real SHOULDs.
 */
export type Level = "MUST" | "SHOULD" | "MAY" | "NONE";
/**
 * `unobserved`: the rule's stimulus could not be seen through (the provider
 * died, wedged, or never acked): never a pass, never a skip, and apart from
 * a failure, since no rule was seen broken; a run with one is not conformant.
 */
export type Status = "pass" | "fail" | "unobserved" | "warn" | "info" | "skip";

/** Every status, in the order a summary counts them. */
export const STATUSES: readonly Status[] = ["pass", "fail", "unobserved", "warn", "info", "skip"];

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
  if (e.untestable) return "unobserved";
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

/** A check's status is its worst evidence's: a rule seen broken outranks one that could not be seen. */
const severity: Record<Status, number> = { skip: 0, pass: 1, info: 2, warn: 3, unobserved: 4, fail: 5 };

export function worst(statuses: Status[]): Status {
  return statuses.reduce<Status>((a, b) => (severity[b] > severity[a] ? b : a), "pass");
}

/** A finding's params: what JSON carries. */
export type Param = string | number | boolean | null | readonly Param[] | { readonly [k: string]: Param };
export type Params = { readonly [k: string]: Param };

/** What a check saw, as recorded: the observation and the words and lines that show it. */
export interface EvidenceRecord extends Observation {
  /** What kind of finding it is, stable across wordings: the check's id and a name from its table, as B3.cost-mismatch. */
  code: string;
  /** The finding's typed values, from which its message was rendered. */
  params: Params;
  message: string;
  /** The normative grammar or wire shape a failing value is outside of, where that, not a keyword, is the rule ("normative grammar: the version rule"). */
  basis?: string;
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
  /** Some of its stimulus could not be observed (a broken precondition, a provider that died or wedged): its status is `unobserved` unless a rule was seen broken. */
  untestable: boolean;
  evidence: EvidenceResult[];
  /** How long the exchanges it judges took: the longest span, first event to last, of the probes it reads, in ms (from the transcript, so a replay says the same). */
  time_ms?: number;
}
