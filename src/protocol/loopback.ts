import { BlockList, isIP } from "node:net";

/** The loopback ranges: 127.0.0.0/8 and ::1 (node:net matches IPv4-mapped IPv6, ::ffff:127.x.y.z, against the IPv4 range). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Whether a URL's host is loopback, decided from the URL alone: no DNS
 * lookup, so that C7's refusal happens before any byte leaves. Loopback is a
 * literal loopback address, or the exact name "localhost", which the HTTP
 * transport then connects to 127.0.0.1 itself, never through a lookup. Any
 * other name (evil.localhost included) is not trusted to be loopback,
 * whatever it resolves to.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost") return true;
  const family = isIP(h);
  return family !== 0 && LOOPBACK.check(h, family === 4 ? "ipv4" : "ipv6");
}

/** The host of a provider URL that is not on this machine (not loopback), or undefined for a loopback one. */
export function remoteHost(url: string): string | undefined {
  const host = new URL(url).hostname;
  return isLoopbackHost(host) ? undefined : host;
}

/** A URL's userinfo (user:password@), if it has one: a credential (C8). */
export function userinfoOf(raw: string): string | undefined {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(raw)?.[1];
}

/** A URL as it may be shown: its userinfo never is. */
export function displayUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1[redacted]@");
}

/** C7's refusal, typed, so the CLI can name the rule. */
export class InsecureTransportError extends Error {
  override name = "InsecureTransportError";
  constructor(readonly url: string) {
    super(`refusing plain http:// to a non-loopback host (C7: "A host's HTTP transport MUST use TLS for every non-loopback provider"): use https://`);
  }
}

/** Parse and vet a provider URL: http(s) only, and plain http only to loopback (C7). */
export function vetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`not a URL: ${displayUrl(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`the HTTP binding needs an http: or https: URL, got ${url.protocol}`);
  if (url.username || url.password) throw new TypeError("credentials in the URL are refused (C8): use --bearer-token-env");
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) throw new InsecureTransportError(raw);
  return url;
}
