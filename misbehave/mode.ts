import type { Provider } from "../fixtures/provider.ts";

/** One defect of the reference provider, and the checks that must catch it. */
export interface Mode {
  name: string;
  /** What the provider does wrong. */
  defect: string;
  /** The checks that must fail, and no others. */
  expectFail: string[];
  /**
   * Why the defect only exists on stdio (a banner, an exit status), or would
   * take down the one HTTP server every session shares (a crash): the
   * selftest then runs the mode on stdio only.
   */
  stdioOnly?: string;
  /** Overrides of the honest behaviours; `honest` is there to delegate to. */
  apply(honest: Provider): Partial<Provider> & ThisType<Provider>;
}

export function defineMode(m: Mode): Mode {
  return m;
}
