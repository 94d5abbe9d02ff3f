import type { ProbeSpec } from "../../src/protocol/probes.ts";
import type { ProbeView } from "../../src/transcript/view.ts";
import type { Level } from "../../src/verdict/status.ts";
import { common } from "./common-findings.ts";
import type { Basis, Table } from "./findings.ts";

export type { Level };

export { site, type Evidence } from "./evidence.ts";
import type { Evidence } from "./evidence.ts";

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
  /** Where the check's rule is a normative grammar or wire shape of §1 rather than a keyword sentence (docs/readings.md, rule 2): which. */
  basis?: Basis;
  probes: readonly ProbeSpec[];
  /** Probes read where they ran, never run for this check: a selection that leaves them out leaves them unread. */
  observes?: readonly ProbeSpec[];
  /**
   * Report order of a section check (an id like S6-as-of, for a rule the spec
   * gives no number): the anchor it follows. Without it a section check comes
   * before every numbered anchor; a numbered check takes its anchor's place.
   */
  follows?: string;
  /**
   * The check's findings: code → the words for it (findings() in
   * kit/findings.ts). Every code its evidence carries is in this table or
   * the one every check shares (kit/common-findings.ts).
   */
  findings?: Table;
  /** The check scores a missing handshake_ack itself (H1) instead of calling it untestable. */
  scoresHandshake?: boolean;
  score(input: ScoreInput): Score;
}

/** One observation per distinct finding, with the lines of all its repeats. */
export function mergeSame(evidence: Evidence[]): Evidence[] {
  const byKey = new Map<string, { e: Evidence; lines: Set<number>; repeated: boolean }>();
  for (const e of evidence) {
    const key = JSON.stringify([e.ok, e.level, e.untestable, e.code, e.message, e.expected, e.actual]);
    const seen = byKey.get(key);
    if (seen) {
      for (const n of e.lines) seen.lines.add(n);
      seen.repeated = true;
    } else byKey.set(key, { e, lines: new Set(e.lines), repeated: false });
  }
  // Lines are united once per finding, at the end: linear however many repeats there are.
  return [...byKey.values()].map(({ e, lines, repeated }) => ({ ...e, lines: repeated ? [...lines].sort((a, b) => a - b) : [...e.lines] }));
}

/** Below this many alike findings each is shown; from it on, they are one finding with a count. */
export const GROUP_AT = 4;
const ALSO = 3;

/**
 * One defect is one finding: evidence of one code, alike but for where it
 * was seen (the same rule broken the same way at frame 0, frame 1, …,
 * frame 117 999; what tells defects apart is the params its table names
 * in `apart`), is folded
 * into its first occurrence, with the count, the next few messages, and the
 * lines of all. Status, level and untestability are part of the likeness, so
 * grouping never changes a verdict. Linear in the evidence.
 */
export function groupAlike<E extends Evidence>(evidence: E[]): E[] {
  const groups = new Map<string, E[]>();
  const keys: string[] = [];
  for (const e of evidence) {
    const status = (e as { status?: string }).status;
    // A finding is alike by its code, and the params its table sets apart.
    const key = JSON.stringify([e.ok, e.level, e.untestable, status, e.code, e.apart]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(e);
    keys.push(key);
  }
  // Each group is emitted where its first occurrence was: the order of first appearance is kept.
  const out: E[] = [];
  for (const [i, e] of evidence.entries()) {
    const g = groups.get(keys[i]!)!;
    if (g.length < GROUP_AT) out.push(e);
    else if (g[0] === e) out.push(folded(g));
  }
  return out;
}

function folded<E extends Evidence>(g: E[]): E {
  const lines = new Set<number>();
  for (const e of g) for (const n of e.lines) lines.add(n);
  const first = g[0]!;
  return {
    ...first,
    message: `${first.message} (the first of ${g.length} like it)`,
    lines: [...lines].sort((a, b) => a - b),
    occurrences: g.length,
    also: g.slice(1, 1 + ALSO).map((e) => e.message),
  };
}

export function defineCheck(def: CheckDef): CheckDef {
  return def;
}

/** The evidence for a probe that recorded no stimulus where its rule needs one: untestable, never a pass and never a throw. */
export function notSent(probe: string, what: string): Evidence[] {
  return [common.say("not-sent", { probe, what }, { lines: [] })];
}
