/** A count in words, as every renderer says it: "1 check", "2 checks" ("1 failure is", "2 failures are"). */
export function counted(k: number, one: string, many = `${one}s`): string {
  return `${k} ${k === 1 ? one : many}`;
}

/** A run's counts, as every renderer says them: "41 checks: 38 pass, 1 fail, 2 not observed, 0 warn, 0 info, 0 skip". */
export function tally(s: { total: number; pass: number; fail: number; unobserved?: number; warn: number; info: number; skip: number }, sep = ", "): string {
  const unobserved = s.unobserved ? [`${s.unobserved} not observed`] : [];
  return `${counted(s.total, "check")}: ${[`${s.pass} pass`, `${s.fail} fail`, ...unobserved, `${s.warn} warn`, `${s.info} info`, `${s.skip} skip`].join(sep)}`;
}

/** How evidence names its level beside a finding: nothing for a MUST (the check's own), the keyword otherwise, and "no keyword" for an outcome the spec states without one. */
export function levelTag(level: string | undefined, basis?: string): string | undefined {
  if (basis !== undefined) return basis;
  if (level === undefined || level === "MUST") return undefined;
  return level === "NONE" ? "no keyword" : level;
}
