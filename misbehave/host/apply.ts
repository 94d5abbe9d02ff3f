import type { InProcessHost } from "../../src/host/run.ts";
import { DEFAULT_TIMEOUT_MS, honestHost, runHost, type HostTarget, type RefHost } from "../../fixtures/host.ts";
import { HOST_MODES } from "./index.ts";

export class UnknownHostModeError extends Error {
  constructor(name: string) {
    super(`no host misbehave mode named ${JSON.stringify(name)}; the modes are: ${HOST_MODES.map((m) => m.name).join(", ")}`);
  }
}

/** The honest reference host, or the reference host with one mode's defect applied. */
export function hostFor(mode?: string, timeoutMs = DEFAULT_TIMEOUT_MS): RefHost {
  const base: RefHost = { ...honestHost, timeoutMs };
  if (mode === undefined) return base;
  const m = HOST_MODES.find((x) => x.name === mode);
  if (!m) throw new UnknownHostModeError(mode);
  return { ...base, ...m.apply(base) };
}

export interface ReferenceHostArgs {
  misbehave?: string;
  /** --timeout, in milliseconds. */
  timeoutMs?: number;
  target: HostTarget;
}

/** `cgp-conform reference-host`: run the reference host (with a defect, if asked) once against one provider; resolves with its exit status. */
export function runReferenceHost(a: ReferenceHostArgs): Promise<number> {
  return runHost(hostFor(a.misbehave, a.timeoutMs ?? DEFAULT_TIMEOUT_MS), a.target);
}

/** The reference host (with a defect, if asked) as a host run in cgp-conform's own process, its output going where the run records it. */
export function inProcessReferenceHost(mode: string | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): InProcessHost {
  return ({ target, bindings, print, log }) => {
    const h = hostFor(mode, timeoutMs);
    return runHost({ ...h, print, log }, target, bindings);
  };
}
