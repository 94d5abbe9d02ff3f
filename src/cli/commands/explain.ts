import { exitCode } from "../../verdict/exit.ts";
import { out, UsageError } from "../io.ts";
import { nearest } from "../suggest.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "explain <anchor>",
  describe: "Explain a check: the spec sentence, what is sent, how it is scored, which modes witness it",
  options: (y) =>
    y.positional("anchor", {
      type: "string",
      demandOption: true,
      describe: "A check id (H1, B3, S2-framing…), a host check (host:H4), a host scenario (stops-answering) or an excluded anchor",
    }),
  async run(a, { noProvider }) {
    noProvider("explain");
    const { explain, explainable } = await import("../../docs/explain.ts");
    const text = explain(a.anchor);
    if (text === undefined) {
      const near = nearest(String(a.anchor), explainable());
      throw new UsageError(`no check, scenario or spec anchor named ${a.anchor}${near ? `: did you mean ${near}?` : ""}; cgp-conform list shows them all`);
    }
    out(text.endsWith("\n") ? text : text + "\n");
    return exitCode("done");
  },
});
