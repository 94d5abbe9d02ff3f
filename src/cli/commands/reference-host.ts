import { HOST_ENV } from "../../protocol/host-scenarios.ts";
import { positive, readIn, UsageError } from "../io.ts";
import { defineCommand } from "./define.ts";

export default defineCommand({
  command: "reference-host",
  describe:
    "Run the bundled reference host once against its providers: cgp-conform reference-host [--misbehave NAME] [--context FILE] [--usage FILE] (-- <provider command> [--and -- <provider command>…] | --url URL [URL…])",
  options: (y) =>
    y
      .option("url", {
        type: "string",
        array: true,
        describe:
          "Reach the provider over the HTTP binding at URL (a token in CGP_PROVIDER_TOKEN is sent as a bearer token); several URLs: several providers, composed together",
      })
      .option("ca", {
        type: "string",
        describe: `With --url: a PEM file of a CA to trust for https://, beside the system's (default: the file ${HOST_ENV.ca} names)`,
      })
      .option("context", {
        type: "string",
        describe: 'Append each context block it composes to FILE, one JSON line {"text": …} each (default: $CGP_CONTEXT_PATH)',
      })
      .option("usage", { type: "string", describe: "Append each query's usage report to FILE, one JSON line each (default: $CGP_USAGE_PATH)" })
      .option("misbehave", { type: "string", describe: "Give the host one defect (the host modes: cgp-conform list shows their witnesses)" })
      .option("timeout", { type: "number", default: 3000, describe: "How long it waits for each answer, in ms" }),
  async run(a, { provider }) {
    const { runReferenceHost, providerCommands, UnknownHostModeError } = await import("../../../misbehave/host/apply.ts");
    // An empty URL is a further provider's placeholder the scenario had none for.
    const urls = (a.url ?? []).map(String).filter((u) => u !== "");
    const commands = providerCommands(provider);
    if (urls.length > 0 && commands.length > 0) throw new UsageError("give the providers as commands after -- or as --url URL, not both");
    if (urls.length === 0 && commands.length === 0)
      throw new UsageError("no provider: give its command after --, e.g. cgp-conform reference-host -- ./my-provider, or --url URL");
    // A CA bundle is a few kilobytes: a megabyte is generous. An empty CGP_PROVIDER_CA names no file.
    const caFile = a.ca ?? (process.env[HOST_ENV.ca] || undefined);
    const ca = urls.length === 0 || caFile === undefined ? undefined : readIn(caFile, 1024 * 1024);
    if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`${caFile}: not a PEM file of certificates`);
    try {
      return await runReferenceHost({
        ...(a.misbehave ? { misbehave: a.misbehave } : {}),
        timeoutMs: positive("timeout", a.timeout),
        target:
          urls.length > 0
            ? urls.map((url) => ({ kind: "http" as const, url, ...(ca !== undefined ? { ca } : {}) }))
            : commands.map((command) => ({ kind: "stdio" as const, command })),
        ...(a.context !== undefined ? { contextPath: a.context } : {}),
        ...(a.usage !== undefined ? { usagePath: a.usage } : {}),
      });
    } catch (e) {
      if (e instanceof UnknownHostModeError) throw new UsageError(e.message);
      throw e;
    }
  },
});
