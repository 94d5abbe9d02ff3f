import { suiteOptions } from "../options.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "http <url>",
  describe: "Run the suite against a provider over the HTTP binding",
  options: (y) =>
    suiteOptions(y)
      .positional("url", { type: "string", demandOption: true, describe: "The provider's endpoint: https://…, or http:// on loopback only (C7)" })
      .option("bearer-token-env", {
        type: "string",
        describe: "Name of the environment variable holding a bearer token (sent as Authorization; never printed: C8)",
      })
      .option("ca", { type: "string", describe: "A PEM file of CA certificates to trust for https://" })
      .option("header", { type: "string", array: true, describe: "An extra request header NAME:VALUE; repeatable (not for credentials)" }),
  async run(a, { noProvider }) {
    noProvider("http");
    const [{ suite }, { httpTarget }] = await Promise.all([import("../suite.ts"), import("../http.ts")]);
    return suite(httpTarget(a), a);
  },
});
