import { KINDS } from "../../schema/kinds.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "validate <file>",
  describe: "Validate a fixture file of envelopes or bare protocol objects (JSON, JSON array, or NDJSON) against the envelope schema",
  options: (y) =>
    y
      .positional("file", { type: "string", demandOption: true, describe: "The file to validate" })
      .option("mode", {
        choices: ["lint", "interop"] as const,
        default: "lint" as const,
        describe: "lint: authoring-strict (unknown members rejected); interop: as a receiver reads it (U1)",
      })
      .option("as", {
        choices: KINDS,
        describe:
          "Judge every document as this kind: envelope (by its type), one envelope type, or a bare object (frame: ContextFrame, context-query: ContextQuery, result: ContextQueryResult, …). Without it, a document with no type whose required members are one bare kind's is judged as that kind",
      })
      .option("json", { type: "boolean", default: false, describe: "Write the results as JSON to stdout" }),
  async run(a, { noProvider }) {
    noProvider("validate");
    const { validate } = await import("../validate.ts");
    return validate(a);
  },
});
