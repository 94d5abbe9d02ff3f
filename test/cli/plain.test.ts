// The plain command lines main answers without loading yargs (plainArgs) must reach each command's run with
// exactly what yargs parses them to: the same values, defaults included, and no key yargs would not set.
import t from "tap";
import type { Command } from "../../src/cli/commands/define.ts";
import explain from "../../src/cli/commands/explain.ts";
import list from "../../src/cli/commands/list.ts";
import replay from "../../src/cli/commands/replay.ts";
import validate from "../../src/cli/commands/validate.ts";
import { main, plainArgs } from "../../src/cli/main.ts";

// biome-ignore lint/suspicious/noExplicitAny: the commands have different option types.
const COMMANDS: Command<any>[] = [list, explain, validate, replay];

/** What main hands each command's run for argv, with the runs stubbed out; `plain: false` parses with yargs. */
async function handed(argv: string[], plain: boolean): Promise<{ command: string; args: Record<string, unknown> }[]> {
  const seen: { command: string; args: Record<string, unknown> }[] = [];
  const runs = COMMANDS.map((c) => c.run);
  for (const c of COMMANDS) {
    c.run = async (a) => {
      seen.push({ command: c.command, args: { ...a } });
      return 0;
    };
  }
  try {
    t.equal(await main(argv, { plain }), 0, `${argv.join(" ")}: exit 0 (plain: ${plain})`);
  } finally {
    COMMANDS.forEach((c, i) => {
      c.run = runs[i]!;
    });
  }
  return seen;
}

const PLAIN = [
  ["list"],
  ["list", "--json"],
  ["explain", "B3"],
  ["explain", "host:H4"],
  ["explain", "stops-answering"],
  ["explain", "123"],
  ["validate", "fixture.ndjson"],
  ["validate", "0x10"],
  ["validate", "a file with spaces.json"],
  ["validate", "ünïcödé.json"],
  ["replay", "run.ndjson"],
  ["replay", "./dir/run.ndjson"],
];

t.test("each plain form reaches its command with what yargs parses it to", async (t) => {
  for (const argv of PLAIN) {
    t.ok(plainArgs(argv), `${argv.join(" ")} is answered without yargs`);
    const viaYargs = await handed(argv, false);
    const plain = await handed(argv, true);
    t.equal(viaYargs.length, 1, `${argv.join(" ")}: yargs runs one command`);
    t.same(plain, viaYargs, `${argv.join(" ")}: the same command, the same options`);
    t.strictSame(Object.keys(plain[0]!.args).sort(), Object.keys(viaYargs[0]!.args).sort(), `${argv.join(" ")}: the same keys`);
  }
});

t.test("any other spelling goes to yargs", async (t) => {
  for (const argv of [
    [],
    ["list", "--help"],
    ["list", "--no-json"],
    ["list", "--json", "--json"],
    ["list", "extra"],
    ["list", "--", "x"],
    ["list", "--coverage"],
    ["explain"],
    ["explain", "--help"],
    ["explain", "B3", "H1"],
    ["validate", "-"],
    ["validate", ""],
    ["validate", "x.json", "--json"],
    ["validate", "x.json", "--mode", "interop"],
    ["validate", "x.json", "--"],
    ["replay", "x.ndjson", "--quiet"],
    ["replay", "--", "x.ndjson"],
    ["stdio", "x"],
    ["--version"],
  ])
    t.equal(plainArgs(argv), undefined, JSON.stringify(argv));
});
