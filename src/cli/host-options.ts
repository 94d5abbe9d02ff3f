import type { Argv } from "yargs";
import { runOptions, type RunArgs } from "./options.ts";
import { FAULT_BOUND_FLOOR_MS } from "../protocol/host-scenarios.ts";
import { DEFAULT_HOST_JOBS } from "../host/options.ts";
import { DEFAULTS } from "../engine/defaults.ts";

export const HOST_TIMEOUT_MS = 10_000;

export interface HostArgs extends RunArgs {
  "fault-timeout": number;
  transport?: "stdio" | "http";
  listen?: string;
  jobs: number;
  "startup-timeout": number;
}

export function hostOptions<T>(y: Argv<T>) {
  return runOptions(y)
    .option("verbose", { type: "boolean", default: false, describe: "Show passing evidence too" })
    .option("timeout", {
      type: "number",
      default: HOST_TIMEOUT_MS,
      describe:
        "How long the host may take in one scenario from its first contact with a provider, in ms: still running then, it is killed (a hang); see --startup-timeout and --fault-timeout",
    })
    .option("startup-timeout", {
      type: "number",
      default: DEFAULTS.startupTimeoutMs,
      describe:
        "How long the host may take to reach its provider in a scenario, in ms (starting its runtime, loading a model): --timeout and --fault-timeout run from then",
    })
    .option("fault-timeout", {
      type: "number",
      default: FAULT_BOUND_FLOOR_MS,
      describe:
        "The least bound on crash-mid-query and stops-answering, in ms (a larger --timeout stands): a host's own deadline on its provider should run out within it",
    })
    .option("transport", {
      choices: ["stdio", "http"] as const,
      describe: "Serve the scenarios over stdio ({provider}) or HTTP ({url}); default: the placeholder the command holds",
    })
    .option("jobs", {
      type: "number",
      default: DEFAULT_HOST_JOBS,
      describe: "Scenarios run at once, each with a host of its own (1: one after another, for a heavy host or one that cannot run twice at once)",
    })
    .option("listen", {
      type: "string",
      describe:
        "Serve the scenarios of C4 and C7 on ADDR, an IP address of this machine that is not loopback (over HTTP, on a free port): {url} there is on ADDR; without it they are skipped",
    })
    .option("transcript", { type: "string", describe: "Save the host transcript (NDJSON: every line the host sent and was answered, per scenario) to FILE" })
    .option("only", { type: "string", array: true, describe: "Run only these host checks: ids with or without host: (H4, host:C*, S2-*); repeatable" })
    .option("skip", { type: "string", array: true, describe: "Leave out these host checks (same patterns as --only); repeatable" })
    .option("baseline", { type: "string", describe: "A file listing host check ids (host:H4) expected to fail" })
    .option("write-baseline", { type: "string", describe: "Write the host checks that failed in this run to FILE, as a baseline" });
}
