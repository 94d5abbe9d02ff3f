import type { InProcessHost } from "../../src/host/options.ts";
import { consentOf, DEFAULT_TIMEOUT_MS, honestHost, runHost, type HostTarget, type RefHost } from "../../src/reference/host.ts";
import { HOST_ENV, type Consent } from "../../src/protocol/host-scenarios.ts";
import { HOST_MODES } from "./index.ts";

export class UnknownHostModeError extends Error {
  constructor(name: string) {
    super(`no host misbehave mode named ${JSON.stringify(name)}; the modes are: ${HOST_MODES.map((m) => m.name).join(", ")}`);
  }
}

/** The honest reference host, or the reference host with one mode's defect applied. */
export function hostFor(mode?: string, timeoutMs = DEFAULT_TIMEOUT_MS, consent: Consent = "none"): RefHost {
  const base: RefHost = { ...honestHost, timeoutMs, consent };
  if (mode === undefined) return base;
  const m = HOST_MODES.find((x) => x.name === mode);
  if (!m) throw new UnknownHostModeError(mode);
  return { ...base, ...m.apply(base) };
}

export interface ReferenceHostArgs {
  misbehave?: string;
  /** --timeout, in milliseconds. */
  timeoutMs?: number;
  /** The consent it holds for its provider; absent, it is read from CGP_CONSENT (HOST_ENV.consent), as any host under test reads it. */
  consent?: Consent;
  /** Its providers, all asked the same query and composed into one block; one alone as before. */
  target: HostTarget | HostTarget[];
  /** --context and --usage; absent, they are read from CGP_CONTEXT_PATH and CGP_USAGE_PATH, as any host under test may read them. */
  contextPath?: string;
  usagePath?: string;
}

/** A path given, or the one in the environment; an empty one is none. */
const pathOr = (given: string | undefined, variable: string): string | undefined => {
  const p = given ?? process.env[variable];
  return p === undefined || p === "" ? undefined : p;
};

/** `cgp-conform reference-host`: run the reference host (with a defect, if asked) once against its providers; resolves with its exit status. */
export function runReferenceHost(a: ReferenceHostArgs): Promise<number> {
  const h = hostFor(a.misbehave, a.timeoutMs ?? DEFAULT_TIMEOUT_MS, a.consent ?? consentOf(process.env[HOST_ENV.consent]));
  const contextPath = pathOr(a.contextPath, HOST_ENV.context);
  const usagePath = pathOr(a.usagePath, HOST_ENV.usage);
  return runHost({ ...h, ...(contextPath ? { contextPath } : {}), ...(usagePath ? { usagePath } : {}) }, a.target);
}

/**
 * `reference-host -- CMD [--and -- CMD2 …]`: the provider commands after the
 * first `--`, one per `--and` (an empty one, a further provider's
 * placeholder the scenario has no provider for, is none).
 */
export function providerCommands(argv: readonly string[]): string[][] {
  const out: string[][] = [[]];
  for (const a of argv) {
    if (a === "--and") out.push([]);
    else out[out.length - 1]!.push(a);
  }
  return out.map((c) => (c[0] === "--" ? c.slice(1) : c)).filter((c) => c.length > 0);
}

/** The reference host (with a defect, if asked) as a host run in cgp-conform's own process, its output going where the run records it. */
export function inProcessReferenceHost(mode: string | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): InProcessHost {
  return ({ targets, files, bindings, consent, print, log }) => {
    const h = hostFor(mode, timeoutMs, consentOf(consent));
    return runHost({ ...h, contextPath: files.context, usagePath: files.usage, print, log }, targets, bindings);
  };
}
