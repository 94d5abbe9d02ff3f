import { readIn, RefusedTargetError, UsageError } from "./io.ts";
import type { HttpTarget } from "../target/connection.ts";
import { bearerToken } from "../target/http.ts";
import { InsecureTransportError, userinfoOf, vetUrl } from "../protocol/loopback.ts";
import { isCredentialHeader, registerSecret } from "../secret/redact.ts";

/** RFC 9110 field names are tokens; values are visible Latin-1 with spaces and tabs. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export { RefusedTargetError };

export interface HttpArgs {
  url: string;
  "bearer-token-env"?: string;
  ca?: string;
  header?: string[];
}

/** Build and vet the HTTP target: C7 before any lookup, C8's token only from the environment. */
export function httpTarget(a: HttpArgs): HttpTarget {
  // Userinfo is a credential (C8): a secret before the URL is even parsed, so no message can echo it.
  const userinfo = userinfoOf(a.url);
  if (userinfo) {
    registerSecret(userinfo);
    const password = userinfo.split(":").slice(1).join(":");
    if (password) registerSecret(password);
  }
  try {
    vetUrl(a.url);
  } catch (e) {
    if (e instanceof InsecureTransportError) throw new RefusedTargetError(e.message);
    throw new UsageError((e as Error).message);
  }
  const headers: Record<string, string> = {};
  for (const h of a.header ?? []) {
    const i = h.indexOf(":");
    if (i <= 0) throw new UsageError("--header must be NAME:VALUE (the value is not shown: it may be a credential)");
    const name = h.slice(0, i).trim().toLowerCase();
    const value = h.slice(i + 1).trim();
    // A credential-bearing header is a secret from the moment it is read (C8), even if it is then refused.
    if (isCredentialHeader(name)) registerSecret(value);
    if (name === "authorization")
      throw new UsageError("pass credentials with --bearer-token-env NAME, not --header: a header value would sit on the command line (C8)");
    if (!HEADER_NAME.test(name)) throw new UsageError(`--header ${JSON.stringify(name)}: not a valid HTTP header name`);
    if (!HEADER_VALUE.test(value))
      throw new UsageError(`--header ${name}: the value has characters an HTTP header cannot carry (CR, LF, control or non-Latin-1)`);
    headers[name] = value;
  }
  // A CA bundle is a few kilobytes: a megabyte is generous.
  const ca = a.ca === undefined ? undefined : readIn(a.ca, 1024 * 1024);
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
