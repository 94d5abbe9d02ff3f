import { rmSync } from "node:fs";
/**
 * Every provider runs in its own process group; this is the one list of the
 * groups still alive, so that any way out of cgp-conform (normal exit, a
 * signal, an uncaught exception) kills them. execa's own cleanup does not
 * cover an uncaught exception or children the provider detached.
 */
const groups = new Set<number>();
/** Directories cgp-conform created for this run (the reference provider's files): removed on any way out too. */
const dirs = new Set<string>();

export function trackDir(path: string): void {
  dirs.add(path);
}

export function untrackDir(path: string): void {
  dirs.delete(path);
}

export function track(pid: number): void {
  groups.add(pid);
}

export function untrack(pid: number): void {
  groups.delete(pid);
}

export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export function killAll(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
}

let installed = false;

/** What a run in progress does when cgp-conform is told to stop: end its sessions and report what it has. */
const interrupts = new Set<(signal: NodeJS.Signals) => void>();

/** How long a run may take to report after a signal before cgp-conform exits without its report. */
export const INTERRUPT_GRACE_MS = 5000;

/** Register a run in progress to be interrupted, not killed, by the first SIGINT/SIGTERM/SIGHUP; returns the unregister. */
export function onInterrupt(fn: (signal: NodeJS.Signals) => void): () => void {
  interrupts.add(fn);
  return () => interrupts.delete(fn);
}

let interrupted = false;

/**
 * Kill all provider groups on exit and on SIGINT/SIGTERM/SIGHUP. A signal
 * during a run interrupts it: the run ends its sessions and prints a partial
 * report marked as interrupted. A second signal, or a run that has not
 * reported within INTERRUPT_GRACE_MS, exits at once.
 */
export function installReaper(onFatal: (err: unknown) => void): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const code = sig === "SIGINT" ? 130 : sig === "SIGTERM" ? 143 : 129;
    process.on(sig, () => {
      if (!interrupted && interrupts.size > 0) {
        interrupted = true;
        for (const fn of [...interrupts]) fn(sig);
        setTimeout(() => {
          killAll();
          process.exit(code);
        }, INTERRUPT_GRACE_MS).unref();
        return;
      }
      killAll();
      process.exit(code);
    });
  }
  process.on("uncaughtException", (err) => {
    killAll();
    onFatal(err);
  });
  process.on("unhandledRejection", (err) => {
    killAll();
    onFatal(err);
  });
}
