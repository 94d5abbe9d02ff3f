import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "fixture",
  describe: "Serve the bundled reference provider on stdio (or over HTTP on loopback)",
  options: (y, { names }) =>
    y
      .option("misbehave", { type: "string", describe: `One defect to apply: ${names.modes.join(", ")}` })
      .option("variant", { type: "string", describe: `One honest shape instead of the full provider: ${names.variants.join(", ")}` })
      .option("root", { type: "string", describe: "Directory to keep the provider's files in (its file provenance points there)" })
      .option("attest", { type: "boolean", default: false, describe: "Sign answers (§6.5) with the published test key" })
      .option("http", {
        type: "number",
        describe: "Serve the HTTP binding on 127.0.0.1:PORT instead of stdio (0: any free port); the URL is printed first",
      })
      .option("tls", { type: "boolean", default: false, describe: "With --http: serve HTTPS with the published self-signed test certificate" }),
  async run(a, { noProvider }) {
    noProvider("fixture");
    const { fixture } = await import("../fixture.ts");
    return fixture(a);
  },
});
