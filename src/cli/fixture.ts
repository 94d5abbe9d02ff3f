import { resolve } from "node:path";
import { inProcessFixture, providerFor, runFixture } from "../../misbehave/apply.ts";
import type { LineProvider } from "../target/connection.ts";
import { materialize, DEFAULT_ROOT } from "../reference/files.ts";
import { MODES } from "../../misbehave/index.ts";
import { out, UsageError } from "./io.ts";
import { UnknownModeError, UnknownVariantError } from "../../misbehave/apply.ts";
import { VARIANTS } from "../reference/variants.ts";
import { exitCode } from "../verdict/exit.ts";

export function knownMode(name: string | undefined): void {
  if (name !== undefined && !MODES.some((m) => m.name === name)) throw new UsageError(new UnknownModeError(name).message);
}

export function knownVariant(name: string | undefined): void {
  if (name !== undefined && !VARIANTS.some((v) => v.name === name)) throw new UsageError(new UnknownVariantError(name).message);
}

/**
 * The reference provider run in this process, one per session, unless its
 * defect is about the process (a crash, an exit, a stray write to stderr):
 * that one is started as a child, since only a process can show it.
 */
export function inProcessFor(mode: string | undefined, root: string, variant: string | undefined): (() => LineProvider) | undefined {
  if (MODES.find((m) => m.name === mode)?.stdioOnly !== undefined) return undefined;
  return inProcessFixture(mode, root, true, variant);
}

export interface FixtureArgs {
  misbehave?: string;
  variant?: string;
  root?: string;
  attest: boolean;
  http?: number;
  tls: boolean;
}

/** cgp-conform fixture: the reference provider on stdio, or over HTTP on loopback (its URL is printed first). */
export async function fixture(a: FixtureArgs): Promise<number> {
  knownMode(a.misbehave);
  knownVariant(a.variant);
  if (a.misbehave !== undefined && a.variant !== undefined)
    throw new UsageError("--misbehave and --variant are exclusive: a mode breaks the full reference provider");
  const root = a.root === undefined ? DEFAULT_ROOT : resolve(a.root);
  if (a.http === undefined) {
    if (a.tls) throw new UsageError("--tls needs --http PORT");
    return runFixture(a.misbehave, root, a.attest, a.variant);
  }
  if (!Number.isInteger(a.http) || a.http < 0 || a.http > 65535) throw new UsageError(`--http must be a port number (0 for any free one), got ${a.http}`);
  materialize(root);
  // Over HTTP alone: node:http and node:https are loaded for it, not by the stdio provider every session starts.
  const { serveHttp } = await import("../reference/http.ts");
  let served;
  try {
    served = await serveHttp(providerFor(a.misbehave, root, a.attest, a.variant), a.http, a.tls);
  } catch (e) {
    throw new UsageError(`--http ${a.http}: cannot listen on 127.0.0.1:${a.http}: ${(e as Error).message}`);
  }
  const { url, closed } = served;
  out(`${url}\n`);
  await closed;
  return exitCode("done");
}
