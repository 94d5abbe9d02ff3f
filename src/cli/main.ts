import type { ArgumentsCamelCase, Argv } from "yargs";
import { installReaper } from "../target/reaper.ts";
import { VERSION } from "../meta/version.ts";
import { err, RefusedTargetError, UsageError } from "./io.ts";
import { EXIT_MEANINGS, exitCode } from "../verdict/exit.ts";
import { suggest } from "./suggest.ts";
import type { Command, CommandContext } from "./commands/define.ts";
import stdio from "./commands/stdio.ts";
import http from "./commands/http.ts";
import reference from "./commands/reference.ts";
import host from "./commands/host.ts";
import referenceHost from "./commands/reference-host.ts";
import scenarioProvider from "./commands/scenario-provider.ts";
import fixture from "./commands/fixture.ts";
import selftest from "./commands/selftest.ts";
import replay from "./commands/replay.ts";
import validate from "./commands/validate.ts";
import attest from "./commands/attest.ts";
import list from "./commands/list.ts";
import explain from "./commands/explain.ts";

/**
 * One module per command under ./commands: its options and its run. Each
 * loads what it runs when it runs: `list` does not load the engine,
 * `validate` does not load the probes, and no command loads another's.
 */
// Each command's run is typed by its own options; here they are one list, handed what yargs parsed for them.
// biome-ignore lint/suspicious/noExplicitAny: the list holds commands of different option types.
const COMMANDS: readonly Command<any>[] = [
  stdio,
  http,
  reference,
  host,
  referenceHost,
  scenarioProvider,
  fixture,
  selftest,
  replay,
  validate,
  attest,
  list,
  explain,
];

/** The names `fixture --help` lists, loaded only for that command. */
async function catalog(): Promise<{ modes: string[]; variants: string[] }> {
  const [{ MODES }, { VARIANTS }] = await Promise.all([import("../../misbehave/index.ts"), import("../reference/variants.ts")]);
  return { modes: MODES.map((m) => m.name), variants: VARIANTS.map((v) => v.name) };
}

/**
 * yargs renders a command's whole --help text each time it runs that command's handler, and keeps it for a
 * later showHelp; nothing here shows help after a handler has run (a failure is thrown to main), so that
 * rendering is skipped: it was most of what yargs costs a short command.
 */
function skipHelpCache(cli: Argv): void {
  const usage = (cli as unknown as { getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage?: () => void } } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => {};
}

function parser(yargs: (args: string[]) => Argv, argv: string[], ctx: CommandContext): Argv {
  const dd = argv.indexOf("--");
  let cli = yargs(dd === -1 ? argv : argv.slice(0, dd))
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
    .epilog(`Exit codes:\n${EXIT_MEANINGS.map(([code, what]) => `  ${code}  ${what}`).join("\n")}`);
  for (const c of COMMANDS) {
    cli = cli.command(
      c.command,
      c.describe as string,
      (y) => c.options(y, ctx),
      async (a) => {
        const code = await c.run(a, ctx);
        if (code !== undefined) ctx.finish(code);
      },
    );
  }
  skipHelpCache(cli);
  return cli
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
}

/** A word that is an argument, not an option: what yargs would take for a positional. */
const isWord = (w: string | undefined): w is string => w !== undefined && w !== "" && !w.startsWith("-");

/**
 * The forms scripts and CI run most, answered without loading yargs: the command's own run, handed what
 * yargs parses each to (its defaults included; test/cli/plain.test.ts holds the two equal). `list`,
 * `list --json`, `explain ANCHOR`, `validate FILE` and `replay FILE`; any other spelling (an option, --help,
 * a second word, "--") goes to yargs.
 */
// biome-ignore lint/suspicious/noExplicitAny: each command's run is typed by its own options.
export function plainArgs(argv: readonly string[]): { command: Command<any>; args: ArgumentsCamelCase } | undefined {
  const [name, word, ...rest] = argv;
  const base = { _: [name ?? ""], $0: "cgp-conform" };
  if (name === "list" && rest.length === 0 && (word === undefined || word === "--json"))
    return { command: list, args: { ...base, json: word === "--json", coverage: false } };
  if (rest.length > 0 || !isWord(word)) return undefined;
  if (name === "explain") return { command: explain, args: { ...base, anchor: word } };
  if (name === "validate") return { command: validate, args: { ...base, file: word, mode: "lint", json: false } };
  if (name === "replay") return { command: replay, args: { ...base, file: word, json: false, verbose: false, quiet: false } };
  return undefined;
}

/** `opts.plain: false` parses every command line with yargs (for the test that holds the plain forms to it). */
export async function main(argv: string[], opts: { plain?: boolean } = {}): Promise<number> {
  let code: number | undefined;
  const dd = argv.indexOf("--");
  const ctx: CommandContext = {
    // The provider's command line is everything after the first "--", untouched: yargs would parse "0x10" in it as 16.
    provider: dd === -1 ? [] : argv.slice(dd + 1),
    noProvider(command) {
      if (dd !== -1) throw new UsageError(`${command} takes no provider command after --; only stdio does`);
    },
    names: argv[0] === "fixture" ? await catalog() : { modes: [], variants: [] },
    finish(c) {
      code = c;
    },
  };
  // The fixture is a provider, not a host: a crash there must look like one (and so is the relay a host spawns).
  if (argv[0] !== "fixture" && argv[0] !== "scenario-provider" && argv[0] !== "reference-host") {
    installReaper((e) => {
      err(`cgp-conform: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(exitCode("internal-error"));
    });
  }
  try {
    const plain = opts.plain === false ? undefined : plainArgs(argv);
    if (plain) code = await plain.command.run(plain.args, ctx);
    else await parser((await import("yargs")).default, argv, ctx).parseAsync();
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
