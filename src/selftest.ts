import { MODES } from "../misbehave/index.ts";
import type { CheckResult } from "./check.ts";
import { runSuite, type SuiteOptions } from "./run.ts";
import { fixtureCommand, withFixtureRoot } from "./self.ts";

export interface SelftestCase {
  /** "honest" or a misbehave mode's name. */
  name: string;
  defect: string;
  expectFail: string[];
  /** Checks that failed on a real observation. */
  failed: string[];
  /** Expected checks that did not fail (the suite is blind to the defect). */
  missed: string[];
  /** Checks that failed though not expected to (a check is imprecise). */
  extra: string[];
  /** Checks that warned or informed on the honest provider, which must be clean. */
  unclean: string[];
  ok: boolean;
  results: CheckResult[];
}

export interface SelftestReport {
  ok: boolean;
  checks: number;
  modes: number;
  cases: SelftestCase[];
}

function judge(name: string, defect: string, expectFail: string[], results: CheckResult[]): SelftestCase {
  // A failure counts as caught only when observed, never when merely untestable;
  // a skip is never a catch.
  const failed = results.filter((r) => r.status === "fail" && !r.untestable).map((r) => r.id);
  const anyFail = results.filter((r) => r.status === "fail").map((r) => r.id);
  const missed = expectFail.filter((id) => !failed.includes(id));
  const extra = anyFail.filter((id) => !expectFail.includes(id));
  const unclean = name === "honest" ? results.filter((r) => r.status !== "pass" && r.status !== "skip").map((r) => r.id) : [];
  return { name, defect, expectFail, failed, missed, extra, unclean, ok: missed.length + extra.length + unclean.length === 0, results };
}

/** Run `task` over `items`, at most `limit` at a time, keeping input order. */
async function pool<T, R>(items: readonly T[], limit: number, task: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Prove the suite: the honest provider fails nothing, and every misbehave mode
 * fails exactly its expected checks.
 */
export async function selftest(opts: SuiteOptions & { concurrency?: number; onCase?: (c: SelftestCase) => void } = {}): Promise<SelftestReport> {
  const cases = [
    { name: "honest", defect: "none: the reference provider as published", expectFail: [] as string[], mode: undefined as string | undefined },
    ...MODES.map((m) => ({ name: m.name, defect: m.defect, expectFail: m.expectFail, mode: m.name })),
  ];
  const results = await pool(cases, opts.concurrency ?? 3, async (c) => {
    const { report } = await withFixtureRoot((root) => runSuite({ kind: "stdio", command: fixtureCommand(c.mode, root) }, { ...opts, trustRoots: [root] }));
    const verdict = judge(c.name, c.defect, c.expectFail, report.results);
    opts.onCase?.(verdict);
    return verdict;
  });
  return { ok: results.every((c) => c.ok), checks: results[0]?.results.length ?? 0, modes: MODES.length, cases: results };
}
