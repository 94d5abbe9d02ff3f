/**
 * Every provider runs in its own process group; this is the one list of the
 * groups still alive, so that any way out of cgp-conform (normal exit, a
 * signal, an uncaught exception) kills them. execa's own cleanup does not
 * cover an uncaught exception or children the provider detached.
 */
const groups = new Set<number>();

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
}

let installed = false;

/** Kill all provider groups on exit and on SIGINT/SIGTERM/SIGHUP. */
export function installReaper(onFatal: (err: unknown) => void): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      killAll();
      process.exit(sig === "SIGINT" ? 130 : sig === "SIGTERM" ? 143 : 129);
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
