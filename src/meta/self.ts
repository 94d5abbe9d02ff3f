import { fileURLToPath } from "node:url";

/** Whether this is the single compiled executable (its modules live in Bun's embedded filesystem). */
export function isCompiled(): boolean {
  return import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
}

/**
 * The script that runs this very cgp-conform: from the sources, the CLI's
 * entry beside this module; in the Node bundle (dist/cgp-conform.mjs, where
 * every module shares the bundle's import.meta.url), the bundle itself.
 */
export function selfScript(url: string = import.meta.url): string {
  return fileURLToPath(new URL(url).pathname.endsWith(".ts") ? new URL("../../bin/cgp-conform.ts", url) : url);
}

/** The command that runs this very cgp-conform, for the fixture to be spawned as a provider. */
export function selfCommand(): string[] {
  if (isCompiled()) return [process.execPath];
  const cli = selfScript();
  return process.versions.bun ? [process.execPath, cli] : [process.execPath, ...process.execArgv, cli];
}
