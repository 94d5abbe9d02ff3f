/**
 * The clocks a deadline is measured on. A provider or host run inside this
 * process answers on this process's one thread: while other work holds that
 * thread, or the machine gives the process no core, it cannot answer, and
 * that time is not its own. The loop clock counts only the time the event
 * loop was free to run: of any gap between two of its ticks, at most
 * MAX_STEP_MS, and where the runtime measures it (Node's event-loop
 * utilisation), no more than the loop spent idle in that gap (but at least
 * BUSY_SHARE of it), so the work of other cases on the same thread, however
 * finely it is cut, counts only that share. A wait on it that nothing answers lasts as long as on the
 * wall clock while the thread idles, and longer only when the thread was
 * held.
 */
import { performance as hooks } from "node:perf_hooks";

export interface Clock {
  /** Milliseconds, from an arbitrary origin. */
  now(): number;
}

export const wallClock: Clock = { now: () => performance.now() };

/** How often the loop clock ticks while a wait uses it. */
export const TICK_MS = 20;
/** The most of one gap between ticks the loop clock counts: a longer gap is the thread held, not time given. */
export const MAX_STEP_MS = 2 * TICK_MS;
/** The least share of a gap the loop clock counts where the loop was busy all of it: a wait is never held off for good. */
export const BUSY_SHARE = 1 / 4;

/**
 * A loop clock over a wall clock read by `wall` (ticked by the caller, in
 * tests); `tick` counts the gap since the last tick, up to one step and, with
 * `idle` (the loop's idle time, a running total), up to the idle time gained
 * or BUSY_SHARE of the gap, whichever is more.
 */
export function stepClock(wall: () => number, idle?: () => number): Clock & { tick(): void } {
  let last = wall();
  let lastIdle = idle?.() ?? 0;
  let counted = 0;
  const tick = (): void => {
    const at = wall();
    const free = idle?.();
    const gap = Math.min(Math.max(0, at - last), MAX_STEP_MS);
    // A loop kept busy by other work still counts a share of each gap: a wait on it ends, at most BUSY_SHARE⁻¹ times its length later.
    counted += free === undefined ? gap : Math.min(gap, Math.max(free - lastIdle, gap * BUSY_SHARE));
    last = at;
    if (free !== undefined) lastIdle = free;
  };
  return {
    tick,
    now() {
      tick();
      return counted;
    },
  };
}

/**
 * The event loop's idle time so far, in ms, where the runtime measures it:
 * Node does; Bun's eventLoopUtilization reads zero, so there the step alone
 * bounds what a gap counts.
 */
function loopIdle(): (() => number) | undefined {
  if (process.versions.bun !== undefined || typeof hooks.eventLoopUtilization !== "function") return undefined;
  return () => hooks.eventLoopUtilization().idle;
}

const shared = stepClock(() => performance.now(), loopIdle());
let users = 0;
let ticker: NodeJS.Timeout | undefined;

/**
 * The loop clock. It ticks only while some wait holds it (`hold` → release):
 * unread, it costs nothing, and its timer never keeps the process alive.
 */
export const loopClock: Clock & { hold(): () => void } = {
  now: () => shared.now(),
  hold() {
    if (users++ === 0) {
      shared.tick();
      ticker = setInterval(shared.tick, TICK_MS).unref();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--users === 0) {
        clearInterval(ticker);
        ticker = undefined;
      }
    };
  },
};

/**
 * A wait of `ms` on `clock`: resolves once the clock has advanced that far
 * (timers are set in wall time, which a loop clock never outruns, and set
 * again for what is left). `cancel` ends it unresolved.
 */
export function after(ms: number, clock: Clock = wallClock): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const release = clock === loopClock ? loopClock.hold() : () => {};
  const until = clock.now() + ms;
  const done = new Promise<void>((resolve) => {
    const arm = (): void => {
      if (cancelled) return;
      const left = until - clock.now();
      if (left <= 0) {
        release();
        resolve();
        return;
      }
      timer = setTimeout(arm, left);
    };
    arm();
  });
  return {
    done,
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      release();
    },
  };
}
