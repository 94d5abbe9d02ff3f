import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { killGroup, track, trackDir, untrack, untrackDir } from "../target/reaper.ts";

export { isCompiled, selfCommand, selfScript } from "../meta/self.ts";
import { selfCommand } from "../meta/self.ts";
import { DEFAULTS } from "./defaults.ts";

/** The reference provider as the suite runs it: its files under `root`, its answers signed (unless its variant does not sign). */
export function fixtureCommand(mode?: string, root?: string, variant?: string): string[] {
  return [
    ...selfCommand(),
    "fixture",
    "--attest",
    ...(mode ? ["--misbehave", mode] : []),
    ...(variant ? ["--variant", variant] : []),
    ...(root ? ["--root", root] : []),
  ];
}

/** Run `f` with a fresh directory for the reference provider's files, removed afterwards. */
export async function withFixtureRoot<T>(f: (root: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), "cgp-conform-root-"));
  // Tracked, so a signal that ends the run mid-way removes it too.
  trackDir(root);
  try {
    return await f(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
    untrackDir(root);
  }
}

/** How long the HTTP fixture may take to start: a runtime's start, which a loaded machine stretches by seconds. */
const URL_WAIT_MS = DEFAULTS.startupTimeoutMs;

/**
 * Run `f` against the reference provider served over HTTP on loopback (its
 * own process group, reaped afterwards): the URL comes from its first line.
 */
export async function withHttpFixture<T>(mode: string | undefined, root: string, tls: boolean, f: (url: string) => Promise<T>, variant?: string): Promise<T> {
  const child = execa(
    selfCommand()[0]!,
    [
      ...selfCommand().slice(1),
      "fixture",
      "--attest",
      "--http",
      "0",
      "--root",
      root,
      ...(tls ? ["--tls"] : []),
      ...(mode ? ["--misbehave", mode] : []),
      ...(variant ? ["--variant", variant] : []),
    ],
    {
      detached: true,
      reject: false,
      buffer: false,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    },
  );
  const pid = child.pid;
  if (pid !== undefined) track(pid);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      // A pure bound on a start that never ends: the fixture prints its URL as soon as its runtime has started.
      const timer = setTimeout(() => reject(new Error(`the HTTP fixture did not print its URL within ${URL_WAIT_MS / 1000} s`)), URL_WAIT_MS);
      child.stdout?.on("data", (c: Buffer) => {
        seen += c.toString("utf8");
        const nl = seen.indexOf("\n");
        if (nl !== -1) {
          clearTimeout(timer);
          resolve(seen.slice(0, nl).trim());
        }
      });
      void child.then(() => reject(new Error("the HTTP fixture exited before printing its URL")));
    });
    return await f(url);
  } finally {
    if (pid !== undefined) {
      killGroup(pid);
      untrack(pid);
    }
    await child;
  }
}
