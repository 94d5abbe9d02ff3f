import { defineCommand } from "./define.ts";

/** The relay a host under test starts as its provider: it carries the lines to the scenario's session (not listed in --help). */
export default defineCommand({
  command: "scenario-provider",
  describe: false,
  options: (y) => y.option("socket", { type: "string", demandOption: true }),
  async run(a, { noProvider }) {
    noProvider("scenario-provider");
    const { relay } = await import("../../host/relay.ts");
    return relay(a.socket);
  },
});
