import { execa, type Options } from "execa";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BUN = fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url));
export const CLI = fileURLToPath(new URL("../../bin/cgp-conform.ts", import.meta.url));
export const BINARY = join(ROOT, "dist", "cgp-conform");

/** The newest modification time of the files the binary is built from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.name === "node_modules" || d.name.startsWith(".")) continue;
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (/\.(ts|js|json|pem|txt)$/.test(d.name)) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const dir of ["bin", "src", "checks", "misbehave"]) walk(join(ROOT, dir));
  for (const f of ["package.json", "package-lock.json"]) newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
  return newest;
}

function built(): boolean {
  try {
    return statSync(BINARY).mtimeMs > newestSource();
  } catch {
    return false;
  }
}

/**
 * cgp-conform as the live tests run it: the single binary, as users run it,
 * when it is newer than every file it is built from (`npm test` builds it
 * first); otherwise the source under bun. Both run the same code: the binary
 * starts each process in a fraction of the time.
 */
export const CGP: readonly string[] = built() ? [BINARY] : [BUN, CLI];

/** Start cgp-conform with these arguments (execa's options as given). */
export function cgp<O extends Options>(args: string[], opts: O) {
  return execa(CGP[0]!, [...CGP.slice(1), ...args], opts);
}

/** The reference provider, run as a process. */
export function fixture(mode?: string): string[] {
  return [...CGP, "fixture", ...(mode ? ["--misbehave", mode] : [])];
}

export function fake(name: string): string[] {
  return [process.execPath, fileURLToPath(new URL(`../fakes/${name}.mjs`, import.meta.url))];
}

/** The temp directory the CLI runs of this test file get: what a run keeps unasked lands here, not in the system's. */
export const RUN_TMP = mkdtempSync(join(tmpdir(), "cgp-live-"));

/** Run the CLI; never rejects. */
export function cli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}) {
  return cgp(args, { reject: false, env: { NO_COLOR: "1", TMPDIR: RUN_TMP, ...opts.env }, input: opts.input, cwd: ROOT });
}
