import type { RefHost } from "../../src/reference/host.ts";
import type { Pin } from "../mode.ts";

/** One defect of the reference host, and the host checks that must catch it. */
export interface HostMode {
  name: string;
  /** What the host does wrong. */
  defect: string;
  /** The host checks (host:<anchor>) that must fail, and no others. */
  expectFail: string[];
  /** Host checks that must warn, not fail (a SHOULD, or an outcome stated with no keyword). Pinned by `finding` like the failures. */
  expectWarn?: string[];
  /**
   * Host checks that must inform, neither fail nor warn: the defect departs
   * from what an informative section describes (§11.1), which binds no host,
   * so info is all such a check can show. Pinned by `finding` like the failures.
   */
  expectInfo?: string[];
  /**
   * What the failing (or warning, or informing) evidence of each expected check must say
   * for the catch to count, as for a provider mode (misbehave/mode.ts): one
   * pattern for every expected check, or a record by check id. Tried with
   * `String.search`; keep them off volatile text (timings, ports, tokens).
   */
  finding: Pin | Record<string, Pin>;
  /** The defect exists over this binding only (a bearer token exists only over HTTP): the selftest runs the mode there only. */
  only?: "stdio" | "http";
  /** Overrides of the honest behaviours; `honest` is there to delegate to. */
  apply(honest: RefHost): Partial<RefHost> & ThisType<RefHost>;
}

export function defineHostMode(m: HostMode): HostMode {
  return m;
}
