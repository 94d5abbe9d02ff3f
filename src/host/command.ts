/**
 * The host's command line and environment in one scenario: its placeholders
 * ({provider}, {url}, {token}, {ca}, ...) filled with what the scenario
 * serves, and the CGP_* variables that say the same. Pure: the scenario loop
 * decides what is served, this only spells it out.
 */
import { HOST_ENV, PLACEHOLDERS, PROVIDER_PLACEHOLDERS, type Consent, type ScenarioSpec } from "../protocol/host-scenarios.ts";
import type { HostFiles } from "./files.ts";
import { shellQuote } from "../target/shell.ts";

/** What fills a host command line's placeholders in one scenario. */
export interface Fill {
  /** The first provider's command (stdio) and URL (HTTP); `providers` / `urls`: every provider's, first = these. */
  provider?: string[];
  url?: string;
  providers?: string[][];
  urls?: string[];
  token: string;
  consent: Consent;
  ca?: string;
  context?: string;
  usage?: string;
}

/**
 * The host's command line with its placeholders filled: a whole {provider}
 * argument becomes the provider's arguments. A further provider's placeholder
 * ({provider2}, {url3}) the scenario has no provider for is left out where it
 * is a whole argument, and empty inside a longer one.
 */
export function expand(command: readonly string[], values: Fill): string[] {
  const commands = values.providers ?? (values.provider ? [values.provider] : []);
  const urls = values.urls ?? (values.url ? [values.url] : []);
  const [, ...furtherCommands] = PROVIDER_PLACEHOLDERS.stdio;
  const [, ...furtherUrls] = PROVIDER_PLACEHOLDERS.http;
  const out: string[] = [];
  for (const arg of command) {
    if (arg === PLACEHOLDERS.provider && values.provider) {
      out.push(...values.provider);
      continue;
    }
    const further = (furtherCommands as readonly string[]).indexOf(arg);
    if (further !== -1) {
      out.push(...(commands[further + 1] ?? []));
      continue;
    }
    const furtherUrl = (furtherUrls as readonly string[]).indexOf(arg);
    if (furtherUrl !== -1) {
      if (urls[furtherUrl + 1] !== undefined) out.push(urls[furtherUrl + 1]!);
      continue;
    }
    let a = arg;
    if (values.provider) a = a.split(PLACEHOLDERS.provider).join(shellQuote(values.provider));
    furtherCommands.forEach((p, i) => (a = a.split(p).join(commands[i + 1] ? shellQuote(commands[i + 1]!) : "")));
    if (values.url) a = a.split(PLACEHOLDERS.url).join(values.url);
    furtherUrls.forEach((p, i) => (a = a.split(p).join(urls[i + 1] ?? "")));
    a = a.split(PLACEHOLDERS.token).join(values.token);
    a = a.split(PLACEHOLDERS.consent).join(values.consent);
    if (values.ca !== undefined) a = a.split(PLACEHOLDERS.ca).join(values.ca);
    if (values.context !== undefined) a = a.split(PLACEHOLDERS.context).join(values.context);
    if (values.usage !== undefined) a = a.split(PLACEHOLDERS.usage).join(values.usage);
    out.push(a);
  }
  return out;
}

/**
 * The host's environment in one scenario: what its command line's
 * placeholders would say, in CGP_* variables. CGP_CONSENT is the scenario's
 * alone: one inherited from cgp-conform's own environment must not grant the
 * host anything.
 */
export function hostEnv(
  spec: ScenarioSpec,
  values: { token: string; ca: string; files: HostFiles; first: { provider?: string[]; url?: string }; providers: string[][]; urls: string[] },
): Record<string, string | undefined> {
  const { first, files } = values;
  const env: Record<string, string | undefined> = {
    [HOST_ENV.token]: values.token,
    [HOST_ENV.scenario]: spec.name,
    [HOST_ENV.consent]: spec.consent,
    [HOST_ENV.ca]: values.ca,
    [HOST_ENV.context]: files.context,
    [HOST_ENV.usage]: files.usage,
  };
  if (first.provider) {
    env[HOST_ENV.command] = shellQuote(first.provider);
    env[HOST_ENV.argv] = JSON.stringify(first.provider);
    env[HOST_ENV.commands] = JSON.stringify(values.providers.map((p) => shellQuote(p)));
  }
  if (first.url) {
    env[HOST_ENV.url] = first.url;
    env[HOST_ENV.urls] = JSON.stringify(values.urls);
  }
  return env;
}
