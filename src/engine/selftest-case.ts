/**
 * A selftest case and its verdict: what a case expected of the checks, how
 * their results are judged against it (caught, missed, extra, unpinned,
 * unclean), and the report's --json form a shard hands back.
 * src/engine/selftest.ts runs the cases.
 */
import type { Mode, Pin } from "../../misbehave/mode.ts";
import type { CheckResult, EvidenceResult, Level, Status } from "../verdict/status.ts";

export type Transport = "stdio" | "http" | "https";

/** How a case's provider runs: its own process (the command a user would run), or inside the selftest's process. */
export type Driven = "process" | "in-process";

export interface SelftestCase {
  /** "honest" or a misbehave mode's name. */
  name: string;
  transport: Transport;
  defect: string;
  expectFail: string[];
  /** Checks that must warn, not fail. */
  expectWarn: string[];
  /** Checks that must inform, neither fail nor warn (a host mode departing from an informative section). */
  expectInfo: string[];
  /** Checks whose stimulus the defect takes away (the provider dies on it): they must be not observed, never pass or fail. */
  expectUnobserved: string[];
  /** Checks that failed on a real observation. */
  failed: string[];
  /** Expected checks that did not fail (the suite is blind to the defect). */
  missed: string[];
  /** Checks that failed though not expected to (a check is imprecise). */
  extra: string[];
  /**
   * Expected checks that failed, but with no failing evidence saying what the
   * mode's `finding` pins: they tripped for another reason than the defect.
   */
  unpinned: string[];
  /** Checks that warned or informed on the honest provider, which must be clean. */
  unclean: string[];
  ok: boolean;
  results: CheckResult[];
  /** Set by selftest(): how the provider ran, and how long the case took (wall, ms). */
  driven?: Driven;
  ms?: number;
}

export interface SelftestReport {
  ok: boolean;
  checks: number;
  modes: number;
  /** Host checks, and host misbehave modes (each a case of the reference host with one defect). */
  host_checks: number;
  host_modes: number;
  cases: SelftestCase[];
}

/** What a mode's finding pins for check `id`; none for the honest provider or a check its record leaves out. */
function pinFor(finding: Mode["finding"] | undefined, id: string): Pin | undefined {
  if (finding === undefined || finding instanceof RegExp || typeof finding === "string" || isCodePin(finding)) return finding;
  return Object.hasOwn(finding, id) ? finding[id] : undefined;
}

function isCodePin(p: unknown): p is { code: string; params?: Readonly<Record<string, unknown>> } {
  return typeof p === "object" && p !== null && !(p instanceof RegExp) && typeof (p as { code?: unknown }).code === "string";
}

/** Whether `actual` holds what `wanted` gives: each member given is there and equal, objects member by member in turn. */
export function holds(actual: unknown, wanted: unknown): boolean {
  if (typeof wanted !== "object" || wanted === null || Array.isArray(wanted)) return JSON.stringify(actual) === JSON.stringify(wanted);
  if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
  return Object.entries(wanted).every(([k, v]) => Object.hasOwn(actual, k) && holds((actual as Record<string, unknown>)[k], v));
}

/** Whether one piece of evidence is what a pin names: by its code and params, or by its words. */
function pinned(e: EvidenceResult, pin: Pin): boolean {
  if (pin instanceof RegExp)
    // `search` always starts at 0 and ignores lastIndex, so a g or y flag cannot make this stateful.
    return [e.message, e.expected, e.actual].some((text) => text !== undefined && text.search(pin) >= 0);
  if (typeof pin === "string") return e.code === pin;
  return e.code === pin.code && (pin.params === undefined || holds(e.params ?? {}, pin.params));
}

/**
 * A check catches a defect by failing; one whose own level is SHOULD can only
 * warn, so for it a warning is the catch, and so it is for a check a mode
 * expects to warn (a SHOULD sub-rule of a MUST check, or an outcome the spec
 * states with no keyword). A check a mode expects to inform (an informative
 * section, which may never fail nor warn) catches by informing.
 */
function catches(level: Level, status: Status, warnIsCatch = false, infoIsCatch = false): boolean {
  return status === "fail" || ((level === "SHOULD" || warnIsCatch) && status === "warn") || (infoIsCatch && status === "info");
}

/** Whether an observed failing evidence of `r` is what `pin` names. */
function says(r: CheckResult, pin: Pin | undefined, warnIsCatch: boolean, infoIsCatch = false): boolean {
  if (!pin) return false;
  return r.evidence.some((e) => catches(r.level, e.status, warnIsCatch, infoIsCatch) && !e.untestable && pinned(e, pin));
}

export function judge(
  name: string,
  transport: Transport,
  defect: string,
  expectFail: string[],
  results: CheckResult[],
  finding?: Mode["finding"],
  expectWarn: string[] = [],
  expectInfo: string[] = [],
  expectUnobserved: string[] = [],
): SelftestCase {
  // A failure counts as caught only when observed, never when merely untestable;
  // a skip is never a catch.
  const failed = results.filter((r) => catches(r.level, r.status, expectWarn.includes(r.id), expectInfo.includes(r.id)) && !r.untestable).map((r) => r.id);
  // A check not observed in a mode's run is as wrong as an unexpected failure: the mode hid evidence it should not have.
  const anyFail = results.filter((r) => r.status === "fail" || (r.status === "unobserved" && !expectUnobserved.includes(r.id))).map((r) => r.id);
  const expected = [...expectFail, ...expectWarn, ...expectInfo];
  const unseen = new Set(results.filter((r) => r.status === "unobserved").map((r) => r.id));
  const missed = [...expected.filter((id) => !failed.includes(id)), ...expectUnobserved.filter((id) => !unseen.has(id))];
  // A check expected to warn that fails instead is as much a wrong verdict as any other unexpected failure.
  const extra = anyFail.filter((id) => !expectFail.includes(id));
  // A catch counts only when the evidence names the defect, not merely the anchor.
  const unpinned = expected.filter(
    (id) => failed.includes(id) && !says(results.find((r) => r.id === id)!, pinFor(finding, id), expectWarn.includes(id), expectInfo.includes(id)),
  );
  const unclean = name === "honest" || name.startsWith("honest:") ? results.filter((r) => r.status !== "pass" && r.status !== "skip").map((r) => r.id) : [];
  return {
    name,
    transport,
    defect,
    expectFail,
    expectWarn,
    expectInfo,
    expectUnobserved,
    failed,
    missed,
    extra,
    unpinned,
    unclean,
    ok: missed.length + extra.length + unpinned.length + unclean.length === 0,
    results,
  };
}

/**
 * The report as --json gives it: a case's results only where it is BAD, so
 * that a BAD case run by a shard still says what its checks saw.
 */
export function reportForJson(
  r: SelftestReport,
): Omit<SelftestReport, "cases"> & { cases: Array<Omit<SelftestCase, "results"> & { results?: CheckResult[] }> } {
  return { ...r, cases: r.cases.map(({ results, ...c }) => (c.ok ? c : { ...c, results })) };
}

/** The cases of a report --json gave (a shard's), each with the results it carries ([] for an ok case); undefined if it is no report. */
export function casesOfJson(text: string): SelftestCase[] | undefined {
  let parsed: { cases?: Array<Omit<SelftestCase, "results"> & { results?: CheckResult[] }> };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return undefined;
  }
  return (parsed.cases ?? []).map((c) => ({ ...c, results: c.results ?? [] }));
}
