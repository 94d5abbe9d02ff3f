import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import yargs, { type Argv } from "yargs";
import { runFixture, UnknownModeError } from "../fixtures/index.ts";
import { MODES } from "../misbehave/index.ts";
import { DEFAULTS } from "./engine.ts";
import { makeChalk } from "./report/color.ts";
import { renderHuman } from "./report/human.ts";
import { exitCodeOf, type RunReport } from "./report/result.ts";
import { reportOf, runSuite } from "./run.ts";
import { keyFromHex } from "./attest/audit.ts";
import { verifyOffline } from "./attest/offline.ts";
import { renderOffline } from "./report/offline.ts";
import { renderValidation } from "./report/validation.ts";
import { fixtureCommand, withFixtureRoot } from "./self.ts";
import { selftest, type SelftestCase } from "./selftest.ts";
import { installReaper } from "./target/reaper.ts";
import { fromNdjson, toNdjson, TranscriptFormatError } from "./transcript/file.ts";
import { validateText } from "./validate.ts";
import { VERSION } from "./version.ts";

/** A mistake in how cgp-conform was invoked: exit 2. */
export class UsageError extends Error {}

interface SuiteArgs {
  json: boolean;
  verbose: boolean;
  timeout: number;
  deadline: number;
  transcript?: string;
  "max-line-bytes": number;
  "trust-root"?: string[];
}

function suiteOptions<T>(y: Argv<T>) {
  return y
    .option("json", { type: "boolean", default: false, describe: "Write the report as JSON to stdout (nothing else goes to stdout)" })
    .option("verbose", { type: "boolean", default: false, describe: "Show passing evidence too" })
    .option("timeout", { type: "number", default: DEFAULTS.timeoutMs, describe: "Per-exchange read deadline, and the shutdown grace period, in ms" })
    .option("deadline", { type: "number", default: DEFAULTS.deadlineMs, describe: "Global deadline for the whole run, in ms" })
    .option("transcript", { type: "string", describe: "Save the NDJSON transcript of every exchange to FILE" })
    .option("max-line-bytes", { type: "number", default: DEFAULTS.limits.maxLineBytes, describe: "Longest provider line read, in bytes" })
    .option("trust-root", { type: "string", array: true, describe: "Another directory, besides the working directory, whose files file provenance may be re-read from (F5); repeatable" });
}

function knownMode(name: string | undefined): void {
  if (name !== undefined && !MODES.some((m) => m.name === name)) throw new UsageError(new UnknownModeError(name).message);
}

function positive(name: string, v: number): number {
  if (!Number.isInteger(v) || v <= 0) throw new UsageError(`--${name} must be a positive integer, got ${v}`);
  return v;
}

function print(report: RunReport, a: { json: boolean; verbose: boolean }): number {
  process.stdout.write(a.json ? JSON.stringify(report, null, 2) + "\n" : renderHuman(report, makeChalk(), a.verbose));
  return exitCodeOf(report);
}

async function suite(command: string[], a: SuiteArgs): Promise<number> {
  if (command.length === 0) throw new UsageError("no provider command: give it after --, e.g. cgp-conform stdio -- ./my-provider --flag");
  const { transcript, report } = await runSuite(
    { kind: "stdio", command },
    {
      timeoutMs: positive("timeout", a.timeout),
      deadlineMs: positive("deadline", a.deadline),
      maxLineBytes: positive("max-line-bytes", a["max-line-bytes"]),
      trustRoots: a["trust-root"]?.map((r) => resolve(r)),
    },
  );
  if (a.transcript) writeFileSync(a.transcript, toNdjson(transcript));
  return print(report, a);
}

function selftestLine(c: SelftestCase): string {
  const chalk = makeChalk(process.stderr);
  const tag = c.ok ? chalk.green("ok  ") : chalk.red.bold("BAD ");
  const want = c.expectFail.length ? `fails ${c.expectFail.join(", ")}` : "fails nothing";
  const problems = [
    c.missed.length ? `not caught by ${c.missed.join(", ")}` : "",
    c.extra.length ? `also failed ${c.extra.join(", ")}` : "",
    c.unclean.length ? `not clean on ${c.unclean.join(", ")}` : "",
  ].filter(Boolean).join("; ");
  return `${tag} ${c.name.padEnd(26)} ${want}${problems ? ` — ${problems}` : ""}`;
}

export async function main(argv: string[]): Promise<number> {
  let code: number | undefined;
  // The provider's command line is everything after the first "--", untouched:
  // yargs would parse "0x10" in it as 16.
  const dd = argv.indexOf("--");
  const provider = dd === -1 ? [] : argv.slice(dd + 1);
  const noProvider = (command: string): void => {
    if (dd !== -1) throw new UsageError(`${command} takes no provider command after --; only stdio does`);
  };
  const cli = yargs(dd === -1 ? argv : argv.slice(0, dd))
    .scriptName("cgp-conform")
    .version(VERSION)
    .locale("en")
    .usage("$0 <command> [options]\n\nConformance tester for Context Graph Protocol providers.")
    .strict()
    .help()
    .command("stdio", "Run the suite against a stdio provider: cgp-conform stdio [options] -- <program> [args...]", (y) => suiteOptions(y), async (a) => {
      code = await suite(provider, a);
    })
    .command("reference", "Run the suite against the bundled reference provider", (y) =>
      suiteOptions(y).option("misbehave", { type: "string", describe: "Give the provider one defect (see: cgp-conform fixture --help)" }), async (a) => {
      noProvider("reference");
      knownMode(a.misbehave);
      code = await withFixtureRoot((root) => suite(fixtureCommand(a.misbehave, root), { ...a, "trust-root": [root] }));
    })
    .command("fixture", "Serve the bundled reference provider on stdio", (y) =>
      y
        .option("misbehave", { type: "string", describe: `One defect to apply: ${MODES.map((m) => m.name).join(", ")}` })
        .option("root", { type: "string", describe: "Directory to keep the provider's files in (its file provenance points there)" })
        .option("attest", { type: "boolean", default: false, describe: "Sign answers (§6.5) with the published test key" }), async (a) => {
      noProvider("fixture");
      knownMode(a.misbehave);
      code = await runFixture(a.misbehave, a.root === undefined ? undefined : resolve(a.root), a.attest);
    })
    .command("selftest", "Prove the suite: the honest provider passes, every misbehave mode fails exactly its checks", (y) =>
      y
        .option("json", { type: "boolean", default: false, describe: "Write the selftest result as JSON to stdout" })
        .option("timeout", { type: "number", default: DEFAULTS.timeoutMs, describe: "Per-exchange read deadline in ms" }), async (a) => {
      noProvider("selftest");
      const r = await selftest({ timeoutMs: positive("timeout", a.timeout), onCase: a.json ? undefined : (c) => process.stdout.write(selftestLine(c) + "\n") });
      if (a.json) {
        process.stdout.write(JSON.stringify({ ...r, cases: r.cases.map(({ results, ...c }) => c) }, null, 2) + "\n");
      } else {
        const bad = r.cases.filter((c) => !c.ok).length;
        process.stdout.write(`selftest: ${r.checks} checks, ${r.modes} misbehave modes: ${r.cases.length - bad} passed, ${bad} failed\n`);
      }
      code = r.ok ? 0 : 1;
    })
    .command("replay <file>", "Re-score a saved transcript offline", (y) =>
      y
        .positional("file", { type: "string", demandOption: true, describe: "A transcript saved with --transcript" })
        .option("json", { type: "boolean", default: false, describe: "Write the report as JSON to stdout" })
        .option("verbose", { type: "boolean", default: false, describe: "Show passing evidence too" }), (a) => {
      noProvider("replay");
      let text: string;
      try {
        text = readFileSync(a.file, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${a.file}: ${(e as Error).message}`);
      }
      try {
        code = print(reportOf(fromNdjson(text)), a);
      } catch (e) {
        if (e instanceof TranscriptFormatError) throw new UsageError(`${a.file}: ${e.message}`);
        throw e;
      }
    })
    .command("validate <file>", "Validate a fixture file of envelopes (JSON, JSON array, or NDJSON) against the envelope schema", (y) =>
      y
        .positional("file", { type: "string", demandOption: true, describe: "The file to validate" })
        .option("mode", { choices: ["lint", "interop"] as const, default: "lint" as const, describe: "lint: authoring-strict (unknown members rejected); interop: as a receiver reads it (U1)" })
        .option("json", { type: "boolean", default: false, describe: "Write the results as JSON to stdout" }), (a) => {
      noProvider("validate");
      let text: string;
      try {
        text = readFileSync(a.file, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${a.file}: ${(e as Error).message}`);
      }
      const results = validateText(text, a.mode);
      process.stdout.write(a.json ? JSON.stringify(results, null, 2) + "\n" : renderValidation(a.file, a.mode, results, makeChalk()));
      code = results.every((r) => r.errors.length === 0) ? 0 : 1;
    })
    .command("attest", "Work with provenance attestations (§6.5)", (y) =>
      y
        .command("verify <file>", "Verify the attestations of a saved frames envelope or transcript, offline", (v) =>
          v
            .positional("file", { type: "string", demandOption: true, describe: "A frames envelope (JSON) or a transcript saved with --transcript" })
            .option("key", { type: "string", describe: "An Ed25519 public key (64 hex digits) to verify every signature with, instead of the published ones" })
            .option("json", { type: "boolean", default: false, describe: "Write the verdicts as JSON to stdout" }), (a) => {
          noProvider("attest verify");
          let text: string;
          try {
            text = readFileSync(a.file, "utf8");
          } catch (e) {
            throw new UsageError(`cannot read ${a.file}: ${(e as Error).message}`);
          }
          if (a.key !== undefined && !/^[0-9a-fA-F]{64}$/.test(a.key)) throw new UsageError("--key must be 64 hex digits (a 32-byte Ed25519 public key)");
          let verdicts;
          try {
            verdicts = verifyOffline(text, a.key ? [keyFromHex(a.key)] : []);
          } catch (e) {
            throw new UsageError(`${a.file}: ${(e as Error).message}`);
          }
          if (a.json) process.stdout.write(JSON.stringify(verdicts, null, 2) + "\n");
          else process.stdout.write(renderOffline(a.file, verdicts, makeChalk()));
          code = verdicts.length > 0 && verdicts.every((v) => v.verdict.kind === "valid" && (v.proof === undefined || v.proof.startsWith("recomputes the root"))) ? 0 : 1;
        })
        .demandCommand(1, "give a subcommand: attest verify FILE"))
    .demandCommand(1, "give a command: stdio, reference, fixture, selftest, replay, validate or attest")
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  // The fixture is a provider, not a host: a crash there must look like one.
  if (argv[0] !== "fixture") {
    installReaper((err) => {
      process.stderr.write(`cgp-conform: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(3);
    });
  }
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof UsageError || (e instanceof Error && e.name === "YError")) {
      process.stderr.write(`cgp-conform: ${e.message}\nRun cgp-conform --help for usage.\n`);
      return 2;
    }
    throw e;
  }
  return code ?? 0;
}
