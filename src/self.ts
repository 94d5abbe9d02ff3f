import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Whether this is the single compiled executable (its modules live in Bun's embedded filesystem). */
export function isCompiled(): boolean {
  return import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
}

/** The command that runs this very cgp-conform, for the fixture to be spawned as a provider. */
export function selfCommand(): string[] {
  if (isCompiled()) return [process.execPath];
  const cli = fileURLToPath(new URL("../bin/cgp-conform.ts", import.meta.url));
  return process.versions.bun ? [process.execPath, cli] : [process.execPath, ...process.execArgv, cli];
}

/** The reference provider as the suite runs it: its files under `root`, its answers signed. */
export function fixtureCommand(mode?: string, root?: string): string[] {
  return [...selfCommand(), "fixture", "--attest", ...(mode ? ["--misbehave", mode] : []), ...(root ? ["--root", root] : [])];
}

/** Run `f` with a fresh directory for the reference provider's files, removed afterwards. */
export async function withFixtureRoot<T>(f: (root: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), "cgp-conform-root-"));
  try {
    return await f(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
