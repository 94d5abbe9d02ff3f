import { execa } from "execa";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BUN = fileURLToPath(new URL("../../node_modules/.bin/bun", import.meta.url));
export const CLI = fileURLToPath(new URL("../../bin/cgp-conform.ts", import.meta.url));

/** The reference provider, run from source by bun. */
export function fixture(mode?: string): string[] {
  return [BUN, CLI, "fixture", ...(mode ? ["--misbehave", mode] : [])];
}

export function fake(name: string): string[] {
  return [process.execPath, fileURLToPath(new URL(`../fakes/${name}.mjs`, import.meta.url))];
}

/** Run the CLI from source; never rejects. */
export function cli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}) {
  return execa(BUN, [CLI, ...args], { reject: false, env: { NO_COLOR: "1", ...opts.env }, input: opts.input, cwd: ROOT });
}
