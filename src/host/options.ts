/**
 * What a `cgp-conform host` run is given (HostRunOptions), and the shape of a
 * host run in this process instead of a command (InProcessHost). Apart from
 * the run itself so that the scenario loop, the in-process path and the
 * callers (the CLI, the selftest, the misbehave modes) share one contract.
 */
import type { ScenarioSpec } from "../protocol/host-scenarios.ts";
import type { Bindings, HostTarget } from "../reference/host.ts";
import type { HostFiles } from "./files.ts";

/**
 * Scenarios run at once by default: each spawns its own host, relay and provider, and most of a scenario is spent
 * waiting on the host, so one after another a run took the sum of its scenarios' waits.
 */
export const DEFAULT_HOST_JOBS = 4;

/** What a progress line is told of a host run. */
export interface ScenarioProgress {
  planned(scenarios: number): void;
  started(key: string, scenario: string): void;
  done(key: string): void;
}

export interface HostRunOptions {
  /** The host command line as given, placeholders unexpanded. */
  command: string[];
  transport: "stdio" | "http";
  /** The bound on one scenario: a host still running then is killed (a hang). The fault scenarios have a floor of their own (boundFloorMs). */
  timeoutMs: number;
  /**
   * The floor of the fault scenarios' bound, instead of FAULT_BOUND_FLOOR_MS
   * (--fault-timeout): for a host whose read deadline is known to be short
   * (the selftest's reference host reads with one of HOST_CASE_READ_MS), so
   * that a host lacking one costs that bound, not a reasonable host's deadline.
   */
  floorMs?: number;
  scenarios: readonly ScenarioSpec[];
  /**
   * With it, a host process's bound on a scenario runs from its first
   * contact with a provider (a relay connecting, its first request), and it
   * has this long to make that contact: the start of its runtime, and of
   * the relay's, which load stretches, is not its time in the scenario.
   */
  startupMs?: number;
  /** Aborted when a signal interrupts the run: the scenario in progress ends as at its bound. */
  signal?: AbortSignal;
  /** Host instances alive at once: how many scenarios run at once (default DEFAULT_HOST_JOBS; 1: one after another). */
  jobs?: number;
  /** Told how many scenarios will run, and as each starts and ends (a progress line). */
  progress?: ScenarioProgress;
  /**
   * A host run in this process instead of the command (the selftest's host
   * modes): given its target and the bindings that reach the scenario
   * provider here, it resolves with its exit status. The command is still
   * what the record names.
   */
  inProcess?: InProcessHost;
  /** The non-loopback address of this machine (--listen, vetted) that the scenarios needing one are served on; without it (and without `standIn`) they are skipped. */
  listen?: string;
  /**
   * A host in this process for the scenarios that need a non-loopback peer,
   * where no --listen address is given (the selftest): it is handed a URL on
   * STAND_IN_ADDRESS and reaches the scenario provider through the
   * in-process stand-in, so nothing is sent anywhere.
   */
  standIn?: InProcessHost;
}

export type InProcessHost = (a: {
  target: HostTarget;
  /** Every provider of the scenario, first = target. */
  targets: HostTarget[];
  /** The files a host process would find in {context} and {usage}. */
  files: HostFiles;
  bindings: Bindings;
  /** What a host process would find in CGP_CONSENT: the scenario's consent, or undefined where it gives none. */
  consent: string | undefined;
  print(line: string): void;
  log(line: string): void;
}) => Promise<number>;
