import { exitCode } from "../../verdict/exit.ts";
import { out } from "../io.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "list",
  describe: "List the checks: anchor, level, title, probes, witnesses (--coverage: every keyword sentence of the spec and what holds it)",
  options: (y) =>
    y
      .option("json", { type: "boolean", default: false, describe: "Write the registry (or, with --coverage, the coverage rows) as JSON to stdout" })
      .option("coverage", {
        type: "boolean",
        default: false,
        describe: "List every MUST, MUST NOT, SHOULD and SHOULD NOT sentence of the spec: the checks and modes that hold it, or why none can",
      }),
  async run(a, { noProvider }) {
    noProvider("list");
    if (a.coverage) {
      const { coverageCounts, coverageRows, renderCoverage } = await import("../../docs/coverage.ts");
      const rows = coverageRows();
      out(
        a.json
          ? JSON.stringify({ counts: coverageCounts(rows), sentences: rows }, null, 2) + "\n"
          : renderCoverage(process.stdout.isTTY ? process.stdout.columns : undefined),
      );
      return exitCode("done");
    }
    const { listJson, renderList } = await import("../../docs/list.ts");
    out(a.json ? JSON.stringify(listJson(), null, 2) + "\n" : renderList(process.stdout.isTTY ? process.stdout.columns : undefined));
    return exitCode("done");
  },
});
