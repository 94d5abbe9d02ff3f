import { defineCommand } from "./define.ts";

const verify = defineCommand({
  command: "verify <file>",
  describe: "Verify the attestations of a saved frames envelope or transcript, offline",
  options: (v) =>
    v
      .positional("file", { type: "string", demandOption: true, describe: "A frames envelope (JSON) or a transcript saved with --transcript" })
      .option("key", {
        type: "string",
        describe: "An Ed25519 public key (64 hex digits) to verify every signature with, instead of the published ones",
      })
      .option("json", { type: "boolean", default: false, describe: "Write the verdicts as JSON to stdout" }),
  async run(a, { noProvider }) {
    noProvider("attest verify");
    const { attestVerify } = await import("../attest-verify.ts");
    return attestVerify(a);
  },
});

/** `attest` groups its subcommands: `attest verify FILE` runs, `attest` alone is a usage error. */
export default defineCommand({
  command: "attest",
  describe: "Work with provenance attestations (§6.5)",
  options: (y, ctx) =>
    y
      .command(
        verify.command,
        verify.describe as string,
        (v) => verify.options(v, ctx),
        async (a) => ctx.finish((await verify.run(a as Parameters<typeof verify.run>[0], ctx))!),
      )
      .demandCommand(1, "give a subcommand: attest verify FILE"),
  async run() {
    return undefined;
  },
});
