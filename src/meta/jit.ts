/**
 * The JIT's tier-up policy. The executable starts with JavaScriptCore's tier-up thresholds scaled by
 * START_JIT_POLICY in scripts/build.mjs (a hundred; --compile-jit-policy bakes it in): most of a run is code that runs a few
 * times (argument parsing, module set-up, one scoring pass over a few hundred lines), and compiling it costs more
 * CPU than interpreting it. A run whose input turns out large is the other kind, a few loops over many frames:
 * once it has HEAVY_BYTES in hand, the normal policy comes back for the rest of the process. `npm run bench` shows
 * both sides (a small replay, the 15 MiB line). Outside the compiled executable (Node, `bun` on the sources) the
 * policy is the runtime's own, and this is a no-op.
 */

/** Input past which the normal policy pays for itself: measured between a 1.2 MB and a 4.6 MB transcript. */
export const HEAVY_BYTES = 2 * 1024 * 1024;

type SetPolicy = (scale: number) => void;

/** The runtime's own setter, where there is one (Bun); none under Node. */
const runtimeSetter: SetPolicy | undefined = (globalThis as { Bun?: { unsafe?: { setJITPolicy?: SetPolicy } } }).Bun?.unsafe?.setJITPolicy;

/** A switch to the normal policy, made once, past HEAVY_BYTES: `set` is the setter it calls (a test passes its own). */
export function jitSwitch(set: SetPolicy | undefined): (bytes: number) => void {
  let normal = false;
  return (bytes) => {
    if (normal || bytes <= HEAVY_BYTES) return;
    normal = true;
    set?.(1);
  };
}

/**
 * Told the bytes a run has in hand: past HEAVY_BYTES, the JIT's normal policy for the rest of the process. Told by the
 * run's budget (every provider line) and by readInBytes (every input file). What a host under test sends is not told:
 * a scenario keeps up to 8 MiB of its lines and 4 MiB a file, and the reference host's whole run took 1.3 s of CPU at
 * the start policy against 1.6 s at the normal one. Only speed is at stake: a host sending more is scored as fast as
 * before this policy, or a little slower.
 */
export const heavyInput = jitSwitch(runtimeSetter);
