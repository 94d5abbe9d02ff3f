import type { Provider } from "../src/reference/provider.ts";

/** One defect of the reference provider, and the checks that must catch it. */
/**
 * What a mode's finding pins: a pattern over its words, or its code (as
 * B3.cost-mismatch), with the params that make it this defect (matched as a
 * subset: every member given must be there, equal; objects are matched
 * member by member in turn).
 */
export type Pin = RegExp | string | { code: string; params?: Readonly<Record<string, unknown>> };

export interface Mode {
  name: string;
  /** What the provider does wrong. */
  defect: string;
  /** The checks that must fail, and no others. */
  expectFail: string[];
  /**
   * Checks that must warn, not fail: the defect breaks a SHOULD sub-rule of a
   * MUST check, or an outcome the spec states with no keyword. Pinned by
   * `finding` like the failures.
   */
  expectWarn?: string[];
  /**
   * Checks the defect leaves not observed: the provider dies on a stimulus
   * they need, so they can neither pass nor fail on it (R1 holds the crash).
   */
  expectUnobserved?: string[];
  /**
   * What the failing evidence must say for the catch to count: at least one
   * evidence of each expected check, with status fail, has a message, expected
   * or actual this matches. Why: a check fails for many reasons (a timeout, a
   * schema slip, a neighbour's precondition), and a mode that trips its check
   * for any of them would pass the selftest while the check stays blind to the
   * defect; the pattern pins the very wrong number or broken rule, so it must
   * not match what another mode breaking the same check differently produces.
   * One pattern for every expected check; a record, by check id, when a mode
   * fails several checks with different evidence (a check missing from the
   * record is never pinned). Patterns are tried with `String.search`, so a
   * `g` or `y` flag changes nothing; keep them off volatile text (timings,
   * temp paths, digests).
   */
  finding: Pin | Record<string, Pin>;
  /**
   * Why the defect only exists on stdio (a banner, an exit status), or would
   * take down the one HTTP server every session shares (a crash): the
   * selftest then runs the mode on stdio only.
   */
  stdioOnly?: string;
  /** Overrides of the honest behaviours; `honest` is there to delegate to. */
  apply(honest: Provider): Partial<Provider> & ThisType<Provider>;
}

export function defineMode(m: Mode): Mode {
  return m;
}
