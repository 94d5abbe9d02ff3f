import { UsageError } from "../io.ts";
import { suiteOptions } from "../options.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "stdio",
  describe: "Run the suite against a stdio provider: cgp-conform stdio [options] -- <program> [args...]",
  options: (y) => suiteOptions(y),
  async run(a, { provider }) {
    if (provider.length === 0) throw new UsageError("no provider command: give it after --, e.g. cgp-conform stdio -- ./my-provider --flag");
    const { suite } = await import("../suite.ts");
    return suite({ kind: "stdio", command: provider }, a);
  },
});
