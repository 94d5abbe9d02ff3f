import { exitCode } from "../../verdict/exit.ts";
import { out } from "../io.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "list",
  describe: "List the checks: anchor, level, title, probes, witnesses",
  options: (y) => y.option("json", { type: "boolean", default: false, describe: "Write the registry as JSON to stdout" }),
  async run(a, { noProvider }) {
    noProvider("list");
    const { listJson, renderList } = await import("../../docs/list.ts");
    out(a.json ? JSON.stringify(listJson(), null, 2) + "\n" : renderList(process.stdout.isTTY ? process.stdout.columns : undefined));
    return exitCode("done");
  },
});
