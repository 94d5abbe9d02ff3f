/**
 * How a run's probes are laid out before any is sent: which probes the
 * checks need, the sessions they share, how many fresh sessions a group may
 * take, and the slots that bound the providers alive at once.
 * src/engine/record.ts runs the plan.
 */
import type { CheckDef } from "../../checks/kit/check.ts";
import { probeByName, PROBES } from "../probe/index.ts";
import type { Probe } from "../probe/probe.ts";
import { PROVENANCE_FILES } from "../protocol/probes.ts";

/** The session the shared probes run in (transcripts from before sessions were recorded name it so too). */
export const SHARED = "shared";

/**
 * Sessions a group may take when stimuli kill or wedge its provider: each
 * fresh one passes over one more stimulus, so a provider that dies on every
 * malformed line (eleven of them) is still seen through to the probes after.
 */
export const MAX_ATTEMPTS = 12;

/** The probes the selected checks need, each once, in registry order. */
export function probesFor(checks: readonly CheckDef[]): Probe[] {
  const wanted = new Set(
    checks
      .flatMap((c) => c.probes)
      .filter((p) => p !== PROVENANCE_FILES)
      .map((p) => p.name),
  );
  for (const name of wanted) probeByName(name);
  return PROBES.filter((p) => wanted.has(p.name));
}

export interface Group {
  name: string;
  probes: Probe[];
}

/** Sessions to open: one per named session its probes join (shared first), then one per probe of its own. */
export function sessionsFor(probes: Probe[]): Group[] {
  const named = new Map<string, Probe[]>();
  for (const p of probes) if (p.session !== "own") named.set(p.session, [...(named.get(p.session) ?? []), p]);
  const order = [...named.keys()].sort((a, b) => Number(b === SHARED) - Number(a === SHARED));
  return [
    ...order.map((name) => ({ name, probes: named.get(name)! })),
    ...probes.filter((p) => p.session === "own").map((p) => ({ name: p.name, probes: [p] })),
  ];
}

/** At most `limit` provider instances alive at once: a session waits for a slot before its provider starts, and frees it once reaped. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  started = 0;
  alive = 0;
  peak = 0;
  constructor(readonly limit: number) {
    this.free = limit;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    this.started++;
    this.peak = Math.max(this.peak, ++this.alive);
    try {
      return await task();
    } finally {
      this.alive--;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
