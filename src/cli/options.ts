import type { Argv } from "yargs";
import { DEFAULTS } from "../engine/defaults.ts";
import { DEFAULT_DEPTH, DEPTHS, type Depth } from "../protocol/probes.ts";

/** The flags every run takes, a provider's or a host's: what it writes, and how it gates. */
export interface RunArgs {
  json: boolean;
  verbose: boolean;
  quiet: boolean;
  timeout: number;
  transcript?: string;
  only?: string[];
  skip?: string[];
  strict: boolean;
  baseline?: string;
  "allow-stale-baseline": boolean;
  "write-baseline"?: string;
  report?: string[];
}

export interface SuiteArgs extends RunArgs {
  deadline: number;
  "startup-timeout": number;
  jobs: number;
  "max-line-bytes": number;
  "trust-root"?: string[];
  consent?: string[];
  depth: Depth;
}

/** What every run (a provider's or a host's) writes and how it gates: the options both commands take alike. */
export function runOptions<T>(y: Argv<T>) {
  return y
    .option("json", { type: "boolean", default: false, describe: "Write the report as JSON to stdout (nothing else goes to stdout)" })
    .option("quiet", { type: "boolean", default: false, describe: "Show only the checks that failed, the counts and the verdict" })
    .option("strict", { type: "boolean", default: false, describe: "Treat SHOULD shortfalls (warnings) as failures" })
    .option("allow-stale-baseline", { type: "boolean", default: false, describe: "With --baseline: a listed check that now passes does not fail the run" })
    .option("report", {
      type: "string",
      array: true,
      describe:
        "Also write a report: FORMAT[:FILE], FORMAT one of json, junit, tap, markdown, github, html (no FILE: stdout, instead of the human report); repeatable",
    });
}

/** The options every command that runs the suite takes. */
export function suiteOptions<T>(y: Argv<T>) {
  return runOptions(y)
    .option("verbose", { type: "boolean", default: false, describe: "Show passing evidence too, and every check of a run that could not be made" })
    .option("timeout", { type: "number", default: DEFAULTS.timeoutMs, describe: "Per-exchange read deadline, and the shutdown grace period, in ms" })
    .option("startup-timeout", {
      type: "number",
      default: DEFAULTS.startupTimeoutMs,
      describe: "How long a provider may take to send its first line (loading an index or a model), in ms",
    })
    .option("jobs", { type: "number", default: DEFAULTS.jobs, describe: "Provider instances alive at once (1: one at a time, for a heavy provider)" })
    .option("deadline", { type: "number", default: DEFAULTS.deadlineMs, describe: "Global deadline for the whole run, in ms" })
    .option("transcript", { type: "string", describe: "Save the NDJSON transcript of every exchange to FILE" })
    .option("max-line-bytes", { type: "number", default: DEFAULTS.limits.maxLineBytes, describe: "Longest provider line (or HTTP body) read, in bytes" })
    .option("trust-root", {
      type: "string",
      array: true,
      describe: "Another directory, besides the working directory, whose files file provenance may be re-read from (F5); repeatable",
    })
    .option("consent", {
      type: "string",
      array: true,
      describe: "Grant consent for an egress scope (or 'egress', or 'all') so queries may be sent (C1, C2, C6); repeatable",
    })
    .option("depth", {
      choices: DEPTHS,
      default: DEFAULT_DEPTH,
      describe:
        "How far stimuli derived from the provider's own frames explore: quick (the few cases each rule needs), standard (each rule's boundary cases, bounded), exhaustive (every case the corpus yields)",
    })
    .option("only", { type: "string", array: true, describe: "Run only these checks: ids, globs and ranges (H1, B*, F5,F11-F13); repeatable" })
    .option("skip", { type: "string", array: true, describe: "Leave out these checks (same patterns as --only); repeatable" })
    .option("baseline", {
      type: "string",
      describe: "A file listing anchors expected to fail: the run is green if no other check fails, and no listed check passes",
    })
    .option("write-baseline", { type: "string", describe: "Write the checks that failed in this run to FILE, as a baseline for --baseline" });
}
