import { availableParallelism } from "node:os";
import yargs from "yargs";
import { DEFAULTS } from "../engine/defaults.ts";
import type { Transport } from "../engine/selftest.ts";
import { installReaper } from "../target/reaper.ts";
import { VERSION } from "../meta/version.ts";
import { err, out, positive, readIn, RefusedTargetError, UsageError } from "./io.ts";
import { suiteOptions } from "./options.ts";
import { hostOptions as hostOptionsOf } from "./host-options.ts";
import { EXIT_MEANINGS, exitCode } from "../verdict/exit.ts";
import { closest, distance } from "fastest-levenshtein";
import { HOST_ENV } from "../protocol/host-scenarios.ts";

/**
 * Each command loads what it runs when it runs: `list` does not load the
 * engine, `validate` does not load the probes, and no command loads another's.
 */
const load = {
  suite: () => import("./suite.ts"),
  http: () => import("./http.ts"),
  fixture: () => import("./fixture.ts"),
  fixtureProcess: () => import("../engine/fixture-process.ts"),
  selftest: () => import("../engine/selftest.ts"),
  selftestText: () => import("./selftest.ts"),
  offline: () => import("./offline.ts"),
  list: () => import("../docs/list.ts"),
  host: () => import("./host.ts"),
  relay: () => import("../host/relay.ts"),
  referenceHost: () => import("../../misbehave/host/apply.ts"),
  explain: () => import("../docs/explain.ts"),
};

/** --shard I/N: 1 ≤ I ≤ N. */
function parseShard(text: string): { index: number; of: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || index < 1 || of < 1 || index > of) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/3; got ${JSON.stringify(text)}`);
  return { index, of };
}

/** The names `fixture --help` lists, loaded only for that command. */
async function catalog(): Promise<{ modes: string[]; variants: string[] }> {
  const [{ MODES }, { VARIANTS }] = await Promise.all([import("../../misbehave/index.ts"), import("../../fixtures/variants.ts")]);
  return { modes: MODES.map((m) => m.name), variants: VARIANTS.map((v) => v.name) };
}

/** yargs' "Unknown argument(s): x, y", with the nearest option named for each (a typo's likely meaning); an unknown command, named. */
function suggest(msg: string, options: string[], command: string | undefined, given: readonly string[]): string {
  const cmd = /^Did you mean (.+)\?$/.exec(msg);
  if (cmd) return `unknown command ${JSON.stringify(command)}: did you mean ${cmd[1]}?`;
  const m = /^Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const known = options.filter((o) => o.length > 1 && o !== "$0");
  const hints = m[1]!
    .split(", ")
    .map((u) => {
      const name = u.replace(/^-+/, "").replace(/=.*$/, "");
      const near = known.length > 0 ? closest(name, known) : undefined;
      return near !== undefined && near !== name && distance(name, near) <= Math.max(2, Math.floor(name.length / 3))
        ? `--${name}: did you mean --${near}?`
        : undefined;
    })
    .filter((h): h is string => h !== undefined);
  // Words that are no option, after a command that takes a command line: the "--" before it was forgotten.
  const words = m[1]!.split(", ").filter((u) => given.includes(u) && u !== command);
  // Only where every unknown word was given as such: an unknown option may have taken the word after it as its value.
  if (words.length > 0 && hints.length === 0 && words.length === m[1]!.split(", ").length && command !== undefined && TAKES_COMMAND.has(command)) {
    const line = words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
    hints.push(`a command line goes after --, as in: cgp-conform ${command} -- ${line}`);
  }
  return hints.length > 0 ? `${msg} (${hints.join("; ")})` : msg;
}

/** The known name nearest to `name` (case aside), where it is near enough to be a typo of it. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = known.map((k) => k.toLowerCase());
  const want = name.toLowerCase();
  const near = closest(want, lower);
  return near !== want && distance(want, near) <= Math.max(2, Math.floor(want.length / 3)) ? known[lower.indexOf(near)] : undefined;
}

/** The commands whose last part is a command line given after "--". */
const TAKES_COMMAND = new Set(["stdio", "host", "reference-host", "replay"]);

export async function main(argv: string[]): Promise<number> {
  let code: number | undefined;
  const names = argv[0] === "fixture" ? await catalog() : { modes: [], variants: [] };
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
    .usage("$0 <command> [options]\n\nConformance tester for Context Graph Protocol providers and hosts.")
    .strict()
    .recommendCommands()
    .help()
    .completion("completion", "Print a shell completion script (bash, zsh): cgp-conform completion >> ~/.bashrc")
    .example("$0 stdio -- ./my-provider --flag", "run the suite against a stdio provider")
    .example("$0 stdio --json --report junit:cgp.xml -- python provider.py", "in CI: JSON on stdout, JUnit beside it")
    .example("$0 http https://ctx.example.com/cgp --bearer-token-env CGP_TOKEN", "a provider over HTTP, with a token from the environment")
    .example("$0 host -- ./my-host --ask retry -- {provider}", "run a host through the scenarios, its provider spliced in for {provider}")
    .example("$0 explain B3", "what B3 requires, and how it is scored")
    .epilog(`Exit codes:\n${EXIT_MEANINGS.map(([code, what]) => `  ${code}  ${what}`).join("\n")}`)
    .command(
      "stdio",
      "Run the suite against a stdio provider: cgp-conform stdio [options] -- <program> [args...]",
      (y) => suiteOptions(y),
      async (a) => {
        if (provider.length === 0) throw new UsageError("no provider command: give it after --, e.g. cgp-conform stdio -- ./my-provider --flag");
        const { suite } = await load.suite();
        code = await suite({ kind: "stdio", command: provider }, a);
      },
    )
    .command(
      "http <url>",
      "Run the suite against a provider over the HTTP binding",
      (y) =>
        suiteOptions(y)
          .positional("url", { type: "string", demandOption: true, describe: "The provider's endpoint: https://…, or http:// on loopback only (C7)" })
          .option("bearer-token-env", {
            type: "string",
            describe: "Name of the environment variable holding a bearer token (sent as Authorization; never printed: C8)",
          })
          .option("ca", { type: "string", describe: "A PEM file of CA certificates to trust for https://" })
          .option("header", { type: "string", array: true, describe: "An extra request header NAME:VALUE; repeatable (not for credentials)" }),
      async (a) => {
        noProvider("http");
        const [{ suite }, { httpTarget }] = await Promise.all([load.suite(), load.http()]);
        code = await suite(httpTarget(a), a);
      },
    )
    .command(
      "reference",
      "Run the suite against the bundled reference provider",
      (y) =>
        suiteOptions(y)
          .option("misbehave", { type: "string", describe: "Give the provider one defect (see: cgp-conform fixture --help)" })
          .option("variant", { type: "string", describe: "Run one of the provider's honest shapes instead (see: cgp-conform fixture --help)" })
          .option("spawn", {
            type: "boolean",
            default: false,
            describe: "Start the provider as a child process per session, as any stdio provider is run (a defect of the process itself always is)",
          }),
      async (a) => {
        noProvider("reference");
        const [{ suite }, { knownMode, knownVariant, inProcessFor }, { fixtureCommand, withFixtureRoot }] = await Promise.all([
          load.suite(),
          load.fixture(),
          load.fixtureProcess(),
        ]);
        knownMode(a.misbehave);
        knownVariant(a.variant);
        if (a.misbehave !== undefined && a.variant !== undefined)
          throw new UsageError("--misbehave and --variant are exclusive: a mode breaks the full reference provider");
        const inRoot = <T>(f: (root: string) => Promise<T>): Promise<T> =>
          withFixtureRoot(f).catch((e: NodeJS.ErrnoException) => {
            // The provider's files need a directory of their own in the temp directory: without one there is no provider to run.
            if (e?.syscall === "mkdtemp") throw new RefusedTargetError(`no directory for the reference provider's files: ${e.message}`);
            throw e;
          });
        code = await inRoot((root) => {
          // The target names the command that serves this provider; unless told to spawn it, each session runs it in this process.
          const inProcess = a.spawn ? undefined : inProcessFor(a.misbehave, root, a.variant);
          const command = fixtureCommand(a.misbehave, root, a.variant);
          return suite({ kind: "stdio", command, ...(inProcess ? { inProcess } : {}) }, { ...a, "trust-root": [root] });
        });
      },
    )
    .command(
      "host",
      "Run a host through the scenarios and score what it sends: cgp-conform host [options] -- <host command with {provider} or {url}>",
      (y) => hostOptionsOf(y),
      async (a) => {
        const { host } = await load.host();
        code = await host(provider, a);
      },
    )
    .command(
      "reference-host",
      "Run the bundled reference host once against its providers: cgp-conform reference-host [--misbehave NAME] [--context FILE] [--usage FILE] (-- <provider command> [--and -- <provider command>…] | --url URL [URL…])",
      (y) =>
        y
          .option("url", {
            type: "string",
            array: true,
            describe:
              "Reach the provider over the HTTP binding at URL (a token in CGP_PROVIDER_TOKEN is sent as a bearer token); several URLs: several providers, composed together",
          })
          .option("ca", {
            type: "string",
            describe: `With --url: a PEM file of a CA to trust for https://, beside the system's (default: the file ${HOST_ENV.ca} names)`,
          })
          .option("context", {
            type: "string",
            describe: 'Append each context block it composes to FILE, one JSON line {"text": …} each (default: $CGP_CONTEXT_PATH)',
          })
          .option("usage", { type: "string", describe: "Append each query's usage report to FILE, one JSON line each (default: $CGP_USAGE_PATH)" })
          .option("misbehave", { type: "string", describe: "Give the host one defect (the host modes: cgp-conform list shows their witnesses)" })
          .option("timeout", { type: "number", default: 3000, describe: "How long it waits for each answer, in ms" }),
      async (a) => {
        const { runReferenceHost, providerCommands, UnknownHostModeError } = await load.referenceHost();
        // An empty URL is a further provider's placeholder the scenario had none for.
        const urls = (a.url ?? []).map(String).filter((u) => u !== "");
        const commands = providerCommands(provider);
        if (urls.length > 0 && commands.length > 0) throw new UsageError("give the providers as commands after -- or as --url URL, not both");
        if (urls.length === 0 && commands.length === 0)
          throw new UsageError("no provider: give its command after --, e.g. cgp-conform reference-host -- ./my-provider, or --url URL");
        // A CA bundle is a few kilobytes: a megabyte is generous. An empty CGP_PROVIDER_CA names no file.
        const caFile = a.ca ?? (process.env[HOST_ENV.ca] || undefined);
        const ca = urls.length === 0 || caFile === undefined ? undefined : readIn(caFile, 1024 * 1024);
        if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`${caFile}: not a PEM file of certificates`);
        try {
          code = await runReferenceHost({
            ...(a.misbehave ? { misbehave: a.misbehave } : {}),
            timeoutMs: positive("timeout", a.timeout),
            target:
              urls.length > 0
                ? urls.map((url) => ({ kind: "http" as const, url, ...(ca !== undefined ? { ca } : {}) }))
                : commands.map((command) => ({ kind: "stdio" as const, command })),
            ...(a.context !== undefined ? { contextPath: a.context } : {}),
            ...(a.usage !== undefined ? { usagePath: a.usage } : {}),
          });
        } catch (e) {
          if (e instanceof UnknownHostModeError) throw new UsageError(e.message);
          throw e;
        }
      },
    )
    .command(
      "scenario-provider",
      false,
      (y) => y.option("socket", { type: "string", demandOption: true }),
      async (a) => {
        noProvider("scenario-provider");
        const { relay } = await load.relay();
        code = await relay(a.socket);
      },
    )
    .command(
      "fixture",
      "Serve the bundled reference provider on stdio (or over HTTP on loopback)",
      (y) =>
        y
          .option("misbehave", { type: "string", describe: `One defect to apply: ${names.modes.join(", ")}` })
          .option("variant", { type: "string", describe: `One honest shape instead of the full provider: ${names.variants.join(", ")}` })
          .option("root", { type: "string", describe: "Directory to keep the provider's files in (its file provenance points there)" })
          .option("attest", { type: "boolean", default: false, describe: "Sign answers (§6.5) with the published test key" })
          .option("http", {
            type: "number",
            describe: "Serve the HTTP binding on 127.0.0.1:PORT instead of stdio (0: any free port); the URL is printed first",
          })
          .option("tls", { type: "boolean", default: false, describe: "With --http: serve HTTPS with the published self-signed test certificate" }),
      async (a) => {
        noProvider("fixture");
        const { fixture } = await load.fixture();
        code = await fixture(a);
      },
    )
    .command(
      "selftest",
      "Prove the suite: the honest provider passes, every misbehave mode fails exactly its checks",
      (y) =>
        y
          .option("json", { type: "boolean", default: false, describe: "Write the selftest result as JSON to stdout" })
          .option("timeout", { type: "number", default: DEFAULTS.timeoutMs, describe: "Per-exchange read deadline in ms" })
          .option("transport", {
            choices: ["stdio", "http", "https"] as const,
            array: true,
            describe: "Transports to prove the suite over (default: all three; https runs the honest provider)",
          })
          .option("jobs", { type: "number", describe: "Processes to run the cases in at once (default: the CPUs available, at most 4)" })
          .option("shard", { type: "string", describe: "Run only one shard of the cases, I/N (every N-th case from the I-th): what --jobs starts" }),
      async (a) => {
        noProvider("selftest");
        const transports = (a.transport ?? ["stdio", "http", "https"]) as Transport[];
        const [{ selftest, reportForJson }, { selftestLine, selftestSummary }] = await Promise.all([load.selftest(), load.selftestText()]);
        const shard = a.shard === undefined ? undefined : parseShard(a.shard);
        const jobs = a.jobs === undefined ? Math.min(4, availableParallelism()) : positive("jobs", a.jobs);
        const r = await selftest({
          timeoutMs: positive("timeout", a.timeout),
          transports,
          jobs,
          ...(shard ? { shard } : {}),
          onCase: a.json ? undefined : (c) => out(selftestLine(c) + "\n"),
        });
        out(a.json ? JSON.stringify(reportForJson(r), null, 2) + "\n" : selftestSummary(r));
        code = exitCode(r.ok ? "selftest-exact" : "selftest-inexact");
      },
    )
    .command(
      "replay <file>",
      "Re-score a saved transcript offline",
      (y) =>
        y
          .positional("file", { type: "string", demandOption: true, describe: "A transcript saved with --transcript" })
          .option("json", { type: "boolean", default: false, describe: "Write the report as JSON to stdout" })
          .option("verbose", { type: "boolean", default: false, describe: "Show passing evidence too" })
          .option("quiet", { type: "boolean", default: false, describe: "Show only the checks that failed, the counts and the verdict" })
          .option("report", {
            type: "string",
            array: true,
            describe: "Also write a report: FORMAT[:FILE] as for a run (json, junit, tap, markdown, github, html); repeatable",
          }),
      async (a) => {
        noProvider("replay");
        const { replay } = await load.offline();
        code = replay(a);
      },
    )
    .command(
      "validate <file>",
      "Validate a fixture file of envelopes (JSON, JSON array, or NDJSON) against the envelope schema",
      (y) =>
        y
          .positional("file", { type: "string", demandOption: true, describe: "The file to validate" })
          .option("mode", {
            choices: ["lint", "interop"] as const,
            default: "lint" as const,
            describe: "lint: authoring-strict (unknown members rejected); interop: as a receiver reads it (U1)",
          })
          .option("json", { type: "boolean", default: false, describe: "Write the results as JSON to stdout" }),
      async (a) => {
        noProvider("validate");
        const { validate } = await load.offline();
        code = validate(a);
      },
    )
    .command("attest", "Work with provenance attestations (§6.5)", (y) =>
      y
        .command(
          "verify <file>",
          "Verify the attestations of a saved frames envelope or transcript, offline",
          (v) =>
            v
              .positional("file", { type: "string", demandOption: true, describe: "A frames envelope (JSON) or a transcript saved with --transcript" })
              .option("key", {
                type: "string",
                describe: "An Ed25519 public key (64 hex digits) to verify every signature with, instead of the published ones",
              })
              .option("json", { type: "boolean", default: false, describe: "Write the verdicts as JSON to stdout" }),
          async (a) => {
            noProvider("attest verify");
            const { attestVerify } = await load.offline();
            code = attestVerify(a);
          },
        )
        .demandCommand(1, "give a subcommand: attest verify FILE"),
    )
    .command(
      "list",
      "List the checks: anchor, level, title, probes, witnesses",
      (y) => y.option("json", { type: "boolean", default: false, describe: "Write the registry as JSON to stdout" }),
      async (a) => {
        noProvider("list");
        const { listJson, renderList } = await load.list();
        out(a.json ? JSON.stringify(listJson(), null, 2) + "\n" : renderList(process.stdout.isTTY ? process.stdout.columns : undefined));
        code = exitCode("done");
      },
    )
    .command(
      "explain <anchor>",
      "Explain a check: the spec sentence, what is sent, how it is scored, which modes witness it",
      (y) =>
        y.positional("anchor", {
          type: "string",
          demandOption: true,
          describe: "A check id (H1, B3, S2-framing…), a host check (host:H4), a host scenario (stops-answering) or an excluded anchor",
        }),
      async (a) => {
        noProvider("explain");
        const { explain, explainable } = await load.explain();
        const text = explain(a.anchor);
        if (text === undefined) {
          const near = nearest(String(a.anchor), explainable());
          throw new UsageError(`no check, scenario or spec anchor named ${a.anchor}${near ? `: did you mean ${near}?` : ""}; cgp-conform list shows them all`);
        }
        out(text.endsWith("\n") ? text : text + "\n");
        code = exitCode("done");
      },
    )
    .demandCommand(1, "give a command: stdio, http, reference, host, reference-host, fixture, selftest, replay, validate, attest, list or explain")
    .fail((msg, e) => {
      // At failure, the instance holds the options of the command being parsed.
      throw (
        e ??
        new UsageError(
          suggest(
            msg,
            Object.keys((cli as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key),
            argv.find((w) => !w.startsWith("-")),
            argv,
          ),
        )
      );
    });
  // The fixture is a provider, not a host: a crash there must look like one (and so is the relay a host spawns).
  if (argv[0] !== "fixture" && argv[0] !== "scenario-provider" && argv[0] !== "reference-host") {
    installReaper((e) => {
      err(`cgp-conform: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(exitCode("internal-error"));
    });
  }
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof RefusedTargetError) {
      err(`cgp-conform: could not run: ${e.message}\n`);
      return exitCode("refused-target");
    }
    if (e instanceof UsageError || (e instanceof Error && e.name === "YError")) {
      err(`cgp-conform: ${e.message}\nRun cgp-conform --help for usage.\n`);
      return exitCode("usage-error");
    }
    throw e;
  }
  return code ?? exitCode("done");
}
