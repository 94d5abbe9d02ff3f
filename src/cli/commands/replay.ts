import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "replay <file>",
  describe: "Re-score a saved transcript offline",
  options: (y) =>
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
  async run(a, { noProvider }) {
    noProvider("replay");
    const { replay } = await import("../offline.ts");
    return replay(a);
  },
});
