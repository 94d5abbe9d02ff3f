import { readIn, UsageError } from "./io.ts";
import type { HttpTarget } from "../target/connection.ts";
import { bearerToken } from "../target/http.ts";
import { InsecureTransportError, vetUrl } from "../protocol/loopback.ts";

/** Refused before anything is sent: C7 names the rule, so the run "could not run" (exit 3). */
export class RefusedTargetError extends Error {}

export interface HttpArgs {
  url: string;
  "bearer-token-env"?: string;
  ca?: string;
  header?: string[];
}

/** Build and vet the HTTP target: C7 before any lookup, C8's token only from the environment. */
export function httpTarget(a: HttpArgs): HttpTarget {
  try {
    vetUrl(a.url);
  } catch (e) {
    if (e instanceof InsecureTransportError) throw new RefusedTargetError(e.message);
    throw new UsageError((e as Error).message);
  }
  const headers: Record<string, string> = {};
  for (const h of a.header ?? []) {
    const i = h.indexOf(":");
    if (i <= 0) throw new UsageError(`--header must be NAME:VALUE, got ${JSON.stringify(h)}`);
    const name = h.slice(0, i).trim().toLowerCase();
    if (name === "authorization")
      throw new UsageError("pass credentials with --bearer-token-env NAME, not --header: a header value would sit on the command line (C8)");
    headers[name] = h.slice(i + 1).trim();
  }
  const ca = a.ca === undefined ? undefined : readIn(a.ca);
  if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`--ca ${a.ca}: not a PEM file of certificates`);
  const target: HttpTarget = {
    kind: "http",
    url: a.url,
    headers,
    ...(a["bearer-token-env"] ? { bearerTokenEnv: a["bearer-token-env"] } : {}),
    ...(ca ? { ca } : {}),
  };
  try {
    bearerToken(target);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return target;
}
