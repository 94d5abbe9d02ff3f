/**
 * How long a host has in one scenario, and what ends its time: the bound (a
 * hang), a signal interrupting the run, or, with a startup allowance, no
 * contact with a provider at all. Apart from the scenario loop so that a host
 * process and a host in this process are bounded by the same rules.
 */
import { boundFloorMs, type ScenarioSpec } from "../protocol/host-scenarios.ts";
import { after, wallClock, type Clock } from "../target/clock.ts";

/**
 * How long a host may take in a scenario: the run's bound, or the scenario's
 * floor where that is longer (crash-mid-query and stops-answering: a host
 * that bounds its reads is given its deadline there), `floorMs` standing in
 * for the floor where given.
 */
export function scenarioBoundMs(spec: ScenarioSpec, o: { timeoutMs: number; floorMs?: number }): number {
  const floor = boundFloorMs(spec);
  return Math.max(o.timeoutMs, floor === 0 ? 0 : (o.floorMs ?? floor));
}

/** The end of a scenario's time, `ms` on `clock`: its bound passed ("hang"), or a signal interrupted the run. `clear` when the host ended first. */
export function scenarioBound(ms: number, o: { signal?: AbortSignal }, clock: Clock = wallClock): { reached: Promise<"hang" | "interrupted">; clear(): void } {
  const wait = after(ms, clock);
  let onAbort: (() => void) | undefined;
  const reached = new Promise<"hang" | "interrupted">((resolve) => {
    void wait.done.then(() => resolve("hang"));
    onAbort = () => resolve("interrupted");
    // A signal that came while the scenario was being set up has already fired: its listener would never be called.
    if (o.signal?.aborted) resolve("interrupted");
    else o.signal?.addEventListener("abort", onAbort, { once: true });
  });
  return {
    reached,
    clear() {
      wait.cancel();
      if (onAbort) o.signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** A scenario's bound of `ms` from the host's first contact with a provider (`contacted`); no contact within `startupMs` ends it too ("no-contact"). */
export function boundFromContact(
  ms: number,
  startupMs: number,
  o: { signal?: AbortSignal },
  contacted: Promise<void>,
): { reached: Promise<"hang" | "no-contact" | "interrupted">; clear(): void } {
  const startup = scenarioBound(startupMs, o);
  let bound: ReturnType<typeof scenarioBound> | undefined;
  let cleared = false;
  const reached = new Promise<"hang" | "no-contact" | "interrupted">((resolve) => {
    void startup.reached.then((r) => resolve(r === "hang" ? "no-contact" : r));
    void contacted.then(() => {
      startup.clear();
      if (cleared) return;
      bound = scenarioBound(ms, o);
      void bound.reached.then(resolve);
    });
  });
  return {
    reached,
    clear() {
      cleared = true;
      startup.clear();
      bound?.clear();
    },
  };
}
