/**
 * What a probe is, apart from any one probe: the ProbeSpec shape, the step
 * names every probe shares, the depths derived stimuli explore to, and the
 * guards that keep a step name declared (src/protocol/probes.ts lists the
 * probes themselves).
 */

export interface ProbeSpec<S extends Readonly<Record<string, string>> = Readonly<Record<string, string>>> {
  name: string;
  summary: string;
  /** The session opens with the standard handshake first (false: the probe sends its own). */
  handshake: boolean;
  /**
   * The provider process the probe runs in: "shared", with every probe whose
   * requests need no fresh state (a stimulus that kills or wedges the provider
   * there is passed over, and what the session had not sent yet is sent in a
   * fresh one); "malformed", with the other probe of malformed input; "own",
   * a process of its own, for a probe that opens with a handshake of its own or
   * breaks a host rule on purpose.
   */
  session: "shared" | "malformed" | "own";
  /**
   * Its stimuli form one exchange: after one of them kills or wedges the
   * provider there is nothing of the probe left to send in a fresh session.
   */
  atomic?: boolean;
  /**
   * The check that judges what becomes of the provider after this probe's
   * stimuli itself (a hang on a foreign version is H3's, an exit after
   * shutdown R2's): R1 holds every other crash.
   */
  survivalJudgedBy?: string;
  /** The envelope types whose survival that check judges; absent, every stimulus of the probe. */
  survivalOf?: readonly string[];
  /** Fixed step names. */
  steps: S;
  /** Prefixes of parametric step names (`kind-` + a kind). */
  families: readonly string[];
}

/**
 * How far derived stimuli explore: quick sends the few cases every rule needs,
 * standard (the default) the boundary cases of each rule drawn from the
 * provider's own corpus, bounded per rule; exhaustive every case the corpus
 * yields. The number of exchanges a run made is in its report.
 */
export const DEPTHS = ["quick", "standard", "exhaustive"] as const;
export type Depth = (typeof DEPTHS)[number];
export const DEFAULT_DEPTH: Depth = "standard";

/**
 * Exhaustive depth takes every case a corpus yields, up to this many of each
 * kind: past it, a corpus of a hundred thousand frames would cost a hundred
 * thousand queries.
 */
export const EXHAUSTIVE_CAP = 64;

/** The first `n` of `items` at this depth: `n.quick` / `n.standard`, or all of them (up to EXHAUSTIVE_CAP) when exhaustive. */
export function atDepth<T>(depth: Depth, items: readonly T[], n: { quick: number; standard: number }): T[] {
  return items.slice(0, depth === "exhaustive" ? Math.max(EXHAUSTIVE_CAP, n.standard) : n[depth]);
}

/** Why a stimulus was sent: the rules it aims at, and how it was chosen from what the provider declared and served. */
export interface Aim {
  rules: string[];
  why: string;
}

/** A generous budget: more than any honest fixture needs, small enough to be a sane u32. */
export const GENEROUS = { max_frames: 64, max_tokens: 1_000_000 } as const;

/** How every step begins that chases a stimulus with a valid query, to learn whether the provider survived it. */
export const CHASE_PREFIX = "after-";

/** Every session opens with a handshake step, recorded under its first probe. */
export const HANDSHAKE_STEP = "handshake";
/**
 * A fresh session resuming a group opens with a valid query before its
 * stimuli, recorded under its first probe: a provider that no longer answers
 * anything is found by it, once, and the group stops there.
 */
export const CANARY_STEP = "canary";
/** What a probe records before its first step (an abandoned probe's note). */
export const START_STEP = "start";

/** A probe spec, with no step families unless it names some. */
export function spec<const S extends Readonly<Record<string, string>>>(p: Omit<ProbeSpec<S>, "families"> & { families?: readonly string[] }): ProbeSpec<S> {
  return { ...p, families: p.families ?? [] };
}

/** Whether a probe records under this step name. */
export function declares(p: ProbeSpec, step: string): boolean {
  return (
    step === HANDSHAKE_STEP ||
    step === START_STEP ||
    step === CANARY_STEP ||
    Object.values(p.steps).includes(step) ||
    p.families.some((f) => step.startsWith(f) && step.length > f.length)
  );
}

/** A step name of one of a probe's parametric families. */
export function familyStep(p: ProbeSpec, prefix: string, param: string | number): string {
  if (!p.families.includes(prefix)) throw new Error(`probe ${p.name} declares no step family ${prefix}`);
  return `${prefix}${param}`;
}

/** Throws unless the probe records under this step name. */
export function assertDeclared(p: ProbeSpec, step: string): void {
  if (!declares(p, step)) throw new Error(`probe ${p.name} declares no step ${JSON.stringify(step)}`);
}
