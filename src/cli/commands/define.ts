import type { ArgumentsCamelCase, Argv } from "yargs";

/** What every command is handed besides its options: the command line after "--", and the names --help lists. */
export interface CommandContext {
  /** Everything after the first "--", untouched (yargs would parse "0x10" in it as 16). */
  provider: string[];
  /** Refuse a command line after "--" where the command takes none. */
  noProvider(command: string): void;
  /** The mode and variant names `fixture --help` lists (loaded for that command alone). */
  names: { modes: string[]; variants: string[] };
  /** Record the exit code of the command that ran (a subcommand's, for a command that only groups them). */
  finish(code: number): void;
}

/** One command: its yargs signature and options, and its run, which returns the exit code. */
export interface Command<O = object> {
  command: string;
  /** false: a command --help does not list. */
  describe: string | false;
  options(y: Argv, ctx: CommandContext): Argv<O>;
  /** The exit code; undefined for a command whose subcommands (registered by its options) run instead. */
  run(a: ArgumentsCamelCase<O>, ctx: CommandContext): Promise<number | undefined>;
}

/** A command, typed by its options: the run sees the options its builder declares. */
export function defineCommand<O>(c: Command<O>): Command<O> {
  return c;
}
