import type { ProbeSpec } from "../../src/protocol/probes.ts";
import type { ProbeView } from "../../src/transcript/view.ts";
import type { EvidenceRecord, Level } from "../../src/verdict/status.ts";

export type { Level };

/** One observation a check makes: a rule held, or was broken, at these lines. */
export type Evidence = EvidenceRecord;

export interface ScoreInput {
  /** What one of the check's declared probes recorded. */
  probe(spec: ProbeSpec): ProbeView;
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
  probes: readonly ProbeSpec[];
  /**
   * Report order of a section check (an id like S6-as-of, for a rule the spec
   * gives no number): the anchor it follows. Without it a section check comes
   * before every numbered anchor; a numbered check takes its anchor's place.
   */
  follows?: string;
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

/** The evidence for a probe that recorded no stimulus where its rule needs one: untestable, never a pass and never a throw. */
export function notSent(probe: string, what: string): Evidence[] {
  return [{ ok: false, untestable: true, message: `probe ${probe} recorded no ${what}, so the rule could not be observed`, lines: [] }];
}
