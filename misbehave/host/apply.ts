import type { InProcessHost } from "../../src/host/run.ts";
import { consentOf, DEFAULT_TIMEOUT_MS, honestHost, runHost, type HostTarget, type RefHost } from "../../fixtures/host.ts";
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
  target: HostTarget;
}

/** `cgp-conform reference-host`: run the reference host (with a defect, if asked) once against one provider; resolves with its exit status. */
export function runReferenceHost(a: ReferenceHostArgs): Promise<number> {
  return runHost(hostFor(a.misbehave, a.timeoutMs ?? DEFAULT_TIMEOUT_MS, a.consent ?? consentOf(process.env[HOST_ENV.consent])), a.target);
}

/** The reference host (with a defect, if asked) as a host run in cgp-conform's own process, its output going where the run records it. */
export function inProcessReferenceHost(mode: string | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): InProcessHost {
  return ({ target, bindings, consent, print, log }) => {
    const h = hostFor(mode, timeoutMs, consentOf(consent));
    return runHost({ ...h, print, log }, target, bindings);
  };
}
