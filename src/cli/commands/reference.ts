import { RefusedTargetError, UsageError } from "../io.ts";
import { suiteOptions } from "../options.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "reference",
  describe: "Run the suite against the bundled reference provider",
  options: (y) =>
    suiteOptions(y)
      .option("misbehave", { type: "string", describe: "Give the provider one defect (see: cgp-conform fixture --help)" })
      .option("variant", { type: "string", describe: "Run one of the provider's honest shapes instead (see: cgp-conform fixture --help)" })
      .option("spawn", {
        type: "boolean",
        default: false,
        describe: "Start the provider as a child process per session, as any stdio provider is run (a defect of the process itself always is)",
      }),
  async run(a, { noProvider }) {
    noProvider("reference");
    const [{ suite }, { knownMode, knownVariant, inProcessFor }, { fixtureCommand, withFixtureRoot }] = await Promise.all([
      import("../suite.ts"),
      import("../fixture.ts"),
      import("../../engine/fixture-process.ts"),
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
    return inRoot((root) => {
      // The target names the command that serves this provider; unless told to spawn it, each session runs it in this process.
      const inProcess = a.spawn ? undefined : inProcessFor(a.misbehave, root, a.variant);
      const command = fixtureCommand(a.misbehave, root, a.variant);
      return suite({ kind: "stdio", command, ...(inProcess ? { inProcess } : {}) }, { ...a, "trust-root": [root] });
    });
  },
});
