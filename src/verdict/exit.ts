/**
 * Exit codes are a contract, and this table is the only place an outcome
 * becomes one: 0 conformant, 1 not conformant, 2 usage error, 3 could not run.
 */
export const EXIT_CODES = {
  /** A run: no check failed (or, with a baseline, none the baseline does not list). */
  conformant: 0,
  /** A run: a check failed (or, with a baseline, one the baseline does not list). */
  "not-conformant": 1,
  /** A run: the provider could not be started or reached, or needed consent the run was not given. */
  "could-not-run": 3,
  /** selftest: every mode was caught by exactly its checks, and the honest provider was clean. */
  "selftest-exact": 0,
  /** selftest: a mode was missed or caught by another check, or the honest provider was not clean. */
  "selftest-inexact": 1,
  /** validate, attest verify: everything read was valid. */
  valid: 0,
  /** validate, attest verify: something read was invalid (or, for attest verify, there was nothing to verify). */
  invalid: 1,
  /** list, explain, fixture, --help, --version. */
  done: 0,
  /** Unknown command or option, a bad value, an unreadable input or unwritable output. */
  "usage-error": 2,
  /** Refused before any byte was sent: plain http:// to a host that is not loopback (C7). */
  "refused-target": 3,
  /** cgp-conform itself failed. */
  "internal-error": 3,
  /** A run whose report was printed, but an output it was asked for (a report or transcript file) could not be written. */
  "output-failed": 3,
} as const satisfies Record<string, 0 | 1 | 2 | 3>;

/** What each exit code means, for --help and the README: one line per code. */
export const EXIT_MEANINGS: ReadonlyArray<readonly [number, string]> = [
  [0, "conformant (with --baseline: only the listed checks failed); selftest exact; valid"],
  [1, "not conformant (with --baseline: an unlisted failure, or a listed check that passes); selftest inexact; invalid"],
  [2, "usage error: an unknown command or option, a bad value, an unreadable input, or an output path that cannot be written (checked before the run)"],
  [
    3,
    "could not run: the provider could not be started or reached, needed consent, or the run was cut short; an output asked for could not be written after the run; an internal error",
  ],
];

export type Outcome = keyof typeof EXIT_CODES;
export type ExitCode = (typeof EXIT_CODES)[Outcome];

export function exitCode(o: Outcome): ExitCode {
  return EXIT_CODES[o];
}
