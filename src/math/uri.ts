/**
 * RFC 3986's URI rule, from its collected ABNF (Appendix A), for G2's
 * "target_uri MUST be a non-empty URI":
 *
 *   URI         = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
 *   hier-part   = "//" authority path-abempty / path-absolute / path-rootless / path-empty
 *   scheme      = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
 *   authority   = [ userinfo "@" ] host [ ":" port ]
 *   userinfo    = *( unreserved / pct-encoded / sub-delims / ":" )
 *   host        = IP-literal / IPv4address / reg-name
 *   port        = *DIGIT
 *   IP-literal  = "[" ( IPv6address / IPvFuture ) "]"
 *   IPvFuture   = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
 *   reg-name    = *( unreserved / pct-encoded / sub-delims )
 *   pchar       = unreserved / pct-encoded / sub-delims / ":" / "@"
 *   query       = *( pchar / "/" / "?" )       fragment = *( pchar / "/" / "?" )
 *   pct-encoded = "%" HEXDIG HEXDIG
 *
 * Only a URI, never a relative reference: G2 wants something a host can
 * compare and dereference without a base. Every IPv4address is also a
 * reg-name, so a host is an IP literal or a reg-name. ABNF strings are
 * case-insensitive, so HEXDIG takes a-f and IPvFuture's "v" takes "V". An
 * IPv6 zone (RFC 6874's "%25eth0") is not RFC 3986, and is refused.
 *
 * When the string is no URI, the answer names the component that breaks and,
 * where one follows from the break, a spelling that is a URI.
 */

export type UriPart = "uri" | "scheme" | "authority" | "userinfo" | "host" | "port" | "path" | "query" | "fragment";

export interface UriParts {
  scheme: string;
  /** Present when hier-part is "//" authority path-abempty. */
  authority?: { userinfo?: string; host: string; port?: string };
  path: string;
  query?: string;
  fragment?: string;
}

export interface UriProblem {
  part: UriPart;
  /** What breaks, naming the part: "its authority … has a port that is not digits". */
  problem: string;
  /** How to write it as a URI, when the break suggests one. */
  fix?: string;
}

export type UriParse = ({ ok: true } & UriParts) | ({ ok: false } & UriProblem);

const ALPHA = "A-Za-z";
const UNRESERVED = `${ALPHA}0-9\\-._~`;
const SUB_DELIMS = "!$&'()*+,;=";
const PCHAR = `${UNRESERVED}${SUB_DELIMS}:@`;

/** The characters each component takes besides pct-encoded ("%" HEXDIG HEXDIG). */
const ALLOWED: Record<"userinfo" | "reg-name" | "path" | "query" | "fragment", RegExp> = {
  userinfo: new RegExp(`[${UNRESERVED}${SUB_DELIMS}:]`),
  "reg-name": new RegExp(`[${UNRESERVED}${SUB_DELIMS}]`),
  path: new RegExp(`[${PCHAR}/]`),
  query: new RegExp(`[${PCHAR}/?]`),
  fragment: new RegExp(`[${PCHAR}/?]`),
};

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

const quote = (s: string): string => JSON.stringify(s);

/** A character as the reader should see it named: printable ASCII as itself, anything else by its code point. */
function nameOf(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x20) return "a space";
  if (cp > 0x20 && cp < 0x7f) return quote(ch);
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}${cp > 0x7f ? " (not ASCII)" : ""}`;
}

/** The pct-encoding of one character's UTF-8 bytes. */
function pctEncode(ch: string): string {
  return [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

type Component = keyof typeof ALLOWED;

/** The first character of `s` a component cannot carry, or a "%" that begins no pct-encoded: its offset and a description. */
function firstBad(s: string, c: Component): { at: number; what: string } | undefined {
  for (let i = 0; i < s.length; ) {
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    if (ch === "%") {
      if (!HEX2.test(s.slice(i + 1, i + 3))) return { at: i, what: `a "%" that begins no %XX escape (${quote(s.slice(i, i + 3))}; a literal "%" is %25)` };
      i += 3;
      continue;
    }
    if (!ALLOWED[c].test(ch)) return { at: i, what: `${nameOf(ch)}, which it cannot carry unescaped (${pctEncode(ch)})` };
    i += ch.length;
  }
  return undefined;
}

/** `s` with every character its component cannot carry pct-encoded, and every stray "%" written %25. */
function encodeBad(s: string, c: Component): string {
  let out = "";
  for (let i = 0; i < s.length; ) {
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    if (ch === "%") {
      out += HEX2.test(s.slice(i + 1, i + 3)) ? "%" : "%25";
      i += 1;
      continue;
    }
    out += ALLOWED[c].test(ch) ? ch : pctEncode(ch);
    i += ch.length;
  }
  return out;
}

const H16 = /^[0-9A-Fa-f]{1,4}$/;
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])";
const IPV4 = new RegExp(`^${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}$`);

/**
 * IPv6address: eight 16-bit pieces (the last two may be an IPv4address), or
 * fewer around one "::" that stands for at least one zero piece, so at most
 * seven written. The nine alternatives of the ABNF say exactly this.
 */
export function isIpv6(s: string): boolean {
  const gap = s.indexOf("::");
  if (gap !== -1 && s.indexOf("::", gap + 1) !== -1) return false;
  const pieces = (side: string): string[] | undefined => (side === "" ? [] : side.split(":"));
  const left = gap === -1 ? pieces(s) : pieces(s.slice(0, gap));
  const right = gap === -1 ? [] : pieces(s.slice(gap + 2));
  if (!left || !right) return false;
  const all = [...left, ...right];
  // An IPv4address is only ever the last piece written (ls32): before a closing "::" ("1.2.3.4::") it is none.
  const last = (gap === -1 ? left : right).at(-1);
  const v4 = last !== undefined && IPV4.test(last);
  const h16s = v4 ? all.slice(0, -1) : all;
  if (!h16s.every((p) => H16.test(p))) return false;
  const count = h16s.length + (v4 ? 2 : 0);
  return gap === -1 ? count === 8 : count <= 7;
}

const IPV_FUTURE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`);

type Step<T> = { ok: true; value: T } | ({ ok: false } & UriProblem);

function parseAuthority(authority: string): Step<NonNullable<UriParts["authority"]>> {
  const fail = (part: UriPart, problem: string): Step<never> => ({ ok: false, part, problem: `its authority ${quote(authority)} ${problem}` });
  const ats = authority.split("@");
  if (ats.length > 2) return fail("userinfo", 'has more than one "@": userinfo ends at the first, and a later "@" is %40');
  const userinfo = ats.length === 2 ? ats[0]! : undefined;
  const hostPort = ats.at(-1)!;
  if (userinfo !== undefined) {
    const bad = firstBad(userinfo, "userinfo");
    if (bad) return fail("userinfo", `has userinfo ${quote(userinfo)} with ${bad.what}`);
  }
  let host: string;
  let rest: string;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close === -1) return fail("host", `opens an IP literal with "[" and never closes it with "]"`);
    host = hostPort.slice(0, close + 1);
    rest = hostPort.slice(close + 1);
    const inner = host.slice(1, -1);
    if (!isIpv6(inner) && !IPV_FUTURE.test(inner)) return fail("host", `has the IP literal ${quote(host)}, which is neither an IPv6 address nor v<hex>.<text>`);
    if (rest !== "" && !rest.startsWith(":"))
      return fail("host", `has ${quote(rest)} after the IP literal ${quote(host)}, where only ":" and a port may follow`);
  } else {
    // A reg-name holds no ":", so the first one ends the host and begins the port.
    const colon = hostPort.indexOf(":");
    host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    rest = colon === -1 ? "" : hostPort.slice(colon);
    const bad = firstBad(host, "reg-name");
    if (bad) return fail("host", `has the host ${quote(host)} with ${bad.what}`);
  }
  const port = rest === "" ? undefined : rest.slice(1);
  if (port !== undefined && !/^[0-9]*$/.test(port))
    return fail("port", `has a port that is not digits (${quote(port)} after the host ${quote(host)}; port = *DIGIT)`);
  return { ok: true, value: { ...(userinfo !== undefined ? { userinfo } : {}), host, ...(port !== undefined ? { port } : {}) } };
}

/** Parse a string as an RFC 3986 URI (not a relative reference). */
export function parseUri(s: string): UriParse {
  if (s === "") return { ok: false, part: "uri", problem: "it is empty" };
  const colon = s.indexOf(":");
  const delim = s.search(/[/?#]/);
  if (colon === -1 || (delim !== -1 && delim < colon))
    return {
      ok: false,
      part: "scheme",
      problem: `it has no scheme (nothing before a ":" ahead of any "/", "?" or "#"): it is a relative reference, not a URI`,
    };
  const scheme = s.slice(0, colon);
  if (scheme === "") return { ok: false, part: "scheme", problem: 'its scheme (before the first ":") is empty' };
  if (!SCHEME.test(scheme))
    return { ok: false, part: "scheme", problem: `its scheme ${quote(scheme)} is not a letter followed by letters, digits, "+", "-" or "."` };

  const afterScheme = s.slice(colon + 1);
  const hash = afterScheme.indexOf("#");
  const beforeHash = hash === -1 ? afterScheme : afterScheme.slice(0, hash);
  const fragment = hash === -1 ? undefined : afterScheme.slice(hash + 1);
  const qmark = beforeHash.indexOf("?");
  const hier = qmark === -1 ? beforeHash : beforeHash.slice(0, qmark);
  const query = qmark === -1 ? undefined : beforeHash.slice(qmark + 1);

  let authority: UriParts["authority"];
  let path = hier;
  if (hier.startsWith("//")) {
    // "The authority component is preceded by a double slash ("//") and is terminated by the next slash ("/"), question mark ("?"), or number sign ("#")" (§3.2).
    const slash = hier.indexOf("/", 2);
    const raw = slash === -1 ? hier.slice(2) : hier.slice(2, slash);
    path = slash === -1 ? "" : hier.slice(slash);
    const a = parseAuthority(raw);
    if (!a.ok) return { ok: false, part: a.part, problem: a.problem, ...authorityFix(s, scheme, raw, a.part) };
    authority = a.value;
  }
  const tail = { path, ...(query !== undefined ? { query } : {}), ...(fragment !== undefined ? { fragment } : {}) };
  for (const [part, value] of [
    ["path", path],
    ["query", query],
    ["fragment", fragment],
  ] as const) {
    if (value === undefined) continue;
    const bad = firstBad(value, part);
    if (!bad) continue;
    if (windowsPath(scheme, path)) {
      const file = `file:///${scheme}:${encodeBad(s.slice(colon + 1).replace(/\\/g, "/"), "path")}`;
      return { ok: false, part, problem: `its ${part} ${quote(value)} has ${bad.what}: it is a Windows path, not a URI`, ...fixIfUri(file) };
    }
    const fixed = rebuild(scheme, authority === undefined ? undefined : hier.slice(0, hier.length - path.length), {
      ...tail,
      [part]: encodeBad(value, part),
    });
    return { ok: false, part, problem: `its ${part} ${quote(value)} has ${bad.what}`, ...fixIfUri(fixed) };
  }
  return { ok: true, scheme, ...(authority ? { authority } : {}), ...tail };
}

/** C:\\repo\\net.rs: a drive letter read as a scheme. */
function windowsPath(scheme: string, path: string): boolean {
  return /^[A-Za-z]$/.test(scheme) && path.startsWith("\\");
}

function rebuild(scheme: string, authorityWithSlashes: string | undefined, t: { path: string; query?: string; fragment?: string }): string {
  return `${scheme}:${authorityWithSlashes ?? ""}${t.path}${t.query !== undefined ? `?${t.query}` : ""}${t.fragment !== undefined ? `#${t.fragment}` : ""}`;
}

function fixIfUri(candidate: string): { fix?: string } {
  return parseUri(candidate).ok ? { fix: `write ${candidate}` } : {};
}

/**
 * An authority that breaks at its port or host is most often a name with
 * colons written after "//" (symbol://std::collections::HashMap): without the
 * "//" the same text is a path, which may hold colons; kept as an authority,
 * its colons can be percent-encoded.
 */
function authorityFix(s: string, scheme: string, authority: string, part: UriPart): { fix?: string } {
  if (part !== "port" && part !== "host") return {};
  const rest = s.slice(scheme.length + 3 + authority.length);
  const asPath = `${scheme}:${authority}${rest}`;
  const encoded = `${scheme}://${encodeBad(authority.replace(/:/g, "%3A"), "reg-name")}${rest}`;
  const fixes = [
    ...(parseUri(asPath).ok ? [`write ${asPath} (no authority: the name is then a path, which may hold ":")`] : []),
    ...(parseUri(encoded).ok && encoded !== asPath ? [`percent-encode the colons: ${encoded}`] : []),
  ];
  return fixes.length > 0 ? { fix: fixes.join(", or ") } : {};
}

export function isUri(v: unknown): v is string {
  return typeof v === "string" && parseUri(v).ok;
}
