/**
 * The rules that turn a check's score into its result, for provider and host
 * checks alike: a check whose every stimulus was lost is not observed; one
 * that throws is not observed, as cgp-conform's own defect; a skip stays a
 * skip unless something it owns was seen; what some stimuli could not show
 * is kept, not observed, beside what the others did show; a score with no
 * evidence at all is not observed, never a vacuous pass.
 */
import { groupAlike, mergeSame, type Evidence } from "./check.ts";
import { OBSERVED_NOTHING, scoringDefect, statusOf, unobservedResult, worst, type CheckResult, type Level } from "../../src/verdict/status.ts";

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

export function judgeScore(j: Judging): CheckResult {
  const { base, broken } = j;
  if (j.allLost) return unobservedResult(base, broken);
  let score: Evidence[] | { skip: string };
  try {
    score = j.score();
  } catch (e) {
    // Whatever a peer sent, the verdict comes out: a check that cannot score it says so, and the run stops for nothing.
    return unobservedResult(base, broken.length > 0 ? broken : [scoringDefect(j.of, e)]);
  }
  const owned = j.owned?.(score) ?? [];
  // What some of its stimuli could not show is not observed, beside what the others did show: a rule seen broken there still fails.
  const lost = broken.map((b) => ({ ok: false, untestable: true, message: b.message, lines: b.lines }));
  if (!Array.isArray(score) && owned.length === 0) {
    return lost.length > 0 ? unobservedResult(base, broken) : { ...base, status: "skip", reason: score.skip, untestable: false, evidence: [] };
  }
  const all = [...(Array.isArray(score) ? score : []), ...owned, ...lost].map((e: Evidence) => {
    const { judges: _, site: __, ...shown } = e;
    return shown;
  });
  if (all.length === 0) return unobservedResult(base, [OBSERVED_NOTHING]);
  const evidence = groupAlike(mergeSame(all).map((e) => ({ ...e, status: statusOf(e, base.level) })));
  return { ...base, status: worst(evidence.map((e) => e.status)), untestable: evidence.some((e) => e.untestable === true), evidence };
}
