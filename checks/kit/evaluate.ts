/**
 * The rules that turn a check's score into its result, for provider and host
 * checks alike: a check whose every stimulus was lost is not observed; one
 * that throws is not observed, as cgp-conform's own defect; a skip stays a
 * skip unless something it owns was seen; what some stimuli could not show
 * is kept, not observed, beside what the others did show; a score with no
 * evidence at all is not observed, never a vacuous pass. Every finding's
 * code is qualified here with the check's id.
 */
import { groupAlike, mergeSame, type Evidence } from "./check.ts";
import { common } from "./common-findings.ts";
import { statusOf, worst, type CheckResult, type EvidenceResult, type Level } from "../../src/verdict/status.ts";

type Base = Pick<CheckResult, "id" | "title" | "level" | "requirement">;
type Why = { message: string; lines: number[] };

export interface Judging {
  base: Base & { level: Level };
  /** Whose output the check scores, for the words of a scoring defect. */
  of: "provider" | "host";
  /** Stimuli whose precondition broke (the peer died, wedged, never acked): what they were to show was not seen. */
  broken: readonly Why[];
  /** Every stimulus was lost: there is nothing to score. */
  allLost: boolean;
  score: () => Evidence[] | { skip: string };
  /** Findings the check owns beside its score (schema violations of its fields), given what it scored. */
  owned?: (score: Evidence[] | { skip: string }) => Evidence[];
}

const lostAs = (b: Why): Evidence => common.say("not-observed", { why: b.message }, { lines: b.lines });

/** A finding as the report shows it: its code the check's, scoring data dropped (but what grouping needs). */
function shown(id: string, e: Evidence): Evidence {
  const { judges: _, site: __, ...rest } = e;
  // A code is the check's: its table's name, qualified with its id here (B3 + cost-mismatch → B3.cost-mismatch).
  return { ...rest, code: `${id}.${rest.code}` };
}

function unobserved(base: Base, evidence: Evidence[]): CheckResult {
  return {
    ...base,
    status: "unobserved",
    untestable: true,
    evidence: evidence.map((e) => ({ ...shown(base.id, e), status: "unobserved" as const })),
  };
}

export function judgeScore(j: Judging): CheckResult {
  const { base, broken } = j;
  if (j.allLost) return unobserved(base, broken.map(lostAs));
  let score: Evidence[] | { skip: string };
  try {
    score = j.score();
  } catch (e) {
    // Whatever a peer sent, the verdict comes out: a check that cannot score it says so, and the run stops for nothing.
    return unobserved(
      base,
      broken.length > 0 ? broken.map(lostAs) : [common.say("scoring-defect", { of: j.of, error: (e as Error)?.message ?? String(e) }, { lines: [] })],
    );
  }
  const owned = j.owned?.(score) ?? [];
  // What some of its stimuli could not show is not observed, beside what the others did show: a rule seen broken there still fails.
  const lost = broken.map(lostAs);
  if (!Array.isArray(score) && owned.length === 0) {
    return lost.length > 0 ? unobserved(base, lost) : { ...base, status: "skip", reason: score.skip, untestable: false, evidence: [] };
  }
  const all = [...(Array.isArray(score) ? score : []), ...owned, ...lost].map((e) => shown(base.id, e));
  if (all.length === 0) return unobserved(base, [common.say("observed-nothing", {}, { lines: [] })]);
  const evidence = groupAlike(mergeSame(all).map((e) => ({ ...e, status: statusOf(e, base.level) }))).map(({ apart: _, ...e }): EvidenceResult => e);
  return { ...base, status: worst(evidence.map((e) => e.status)), untestable: evidence.some((e) => e.untestable === true), evidence };
}
