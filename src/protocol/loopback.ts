import { isIP } from "node:net";
import { displayUrl, registerSecret } from "../secret/redact.ts";

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
  if (isIP(h) === 4) return h.split(".")[0] === "127";
  if (isIP(h) === 6) return h === "::1" || h === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(h);
  return false;
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
  // Userinfo is a credential (C8): a secret before the URL is even parsed, and never echoed.
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(raw)?.[1];
  if (userinfo) {
    registerSecret(userinfo);
    const password = userinfo.split(":").slice(1).join(":");
    if (password) registerSecret(password);
  }
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
