/**
 * C8: "A host MUST NOT log, or place in an error surfaced off-machine, any
 * bearer token, credential, or authorization header." Every credential the
 * tool is given (the bearer token, a URL's userinfo, the value of a
 * credential-bearing header) is registered here, and every byte
 * cgp-conform writes out passes through redact() at the last step before it
 * leaves the process (src/cli/io.ts), after every transformation a renderer
 * applies. So a secret is caught however it got there:
 * - verbatim;
 * - escaped, character by character and in any mix: JSON `\uXXXX` and
 *   `\"`, markdown's backslash escapes, percent-encoding, HTML character
 *   references (a provider echoing it escaped, a renderer escaping it);
 * - as a fragment of FRAGMENT or more characters (an evidence quote cut in
 *   the middle of it).
 */
const secrets = new Set<string>();
let matchers: RegExp[] = [];

export const REDACTED = "[redacted]";

/** The shortest piece of a secret that is redacted on its own: shorter ones say too little to matter, and would hit ordinary text. */
export const FRAGMENT = 8;

const hex2 = (n: number): string => n.toString(16).padStart(2, "0");

/** Every way one character may be written in the outputs this tool produces. */
function charPattern(c: string): string {
  const code = c.codePointAt(0)!;
  const lit = c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  // Any number of backslashes: an escape may itself be escaped (a provider's line, JSON-encoded again in a transcript or report).
  const forms = [`\\\\*${lit}`];
  if (code <= 0xffff) forms.push(`\\\\+u${code.toString(16).padStart(4, "0")}`.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`));
  for (const b of Buffer.from(c, "utf8")) forms.push(`%${hex2(b)}`.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`));
  forms.push(
    `&#${code};`,
    `&#[xX]0*${code.toString(16)};`.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`),
  );
  if (c === "&") forms.push("&amp;");
  if (c === "<") forms.push("&lt;");
  if (c === ">") forms.push("&gt;");
  if (c === '"') forms.push("&quot;");
  return `(?:${forms.join("|")})`;
}

/** A pattern for a run of characters, each in any of its forms. */
function runPattern(chars: string[]): string {
  return chars.map(charPattern).join("");
}

function rebuild(): void {
  matchers = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map((s) => {
      const chars = [...s];
      // The whole secret first, then every window of FRAGMENT characters of it (a cut quote keeps one of them).
      const windows = new Set<string>();
      if (chars.length > FRAGMENT) for (let i = 0; i + FRAGMENT <= chars.length; i++) windows.add(runPattern(chars.slice(i, i + FRAGMENT)));
      // A zero-width lookahead finds every match, overlapping ones included, so overlapping windows unite into one span.
      return new RegExp(`(?=(${[runPattern(chars), ...windows].join("|")}))`, "g");
    });
}

/** The spans of `text` that spell some secret, or a window of one, in any form, united. */
function spans(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const m of matchers) for (const hit of text.matchAll(m)) found.push([hit.index, hit.index + hit[1]!.length]);
  found.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of found) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

export function registerSecret(s: string): void {
  if (s.length === 0 || secrets.has(s)) return;
  secrets.add(s);
  rebuild();
}

/** Whether any secret is registered (a run given no credential has nothing to hide). */
export function hasSecrets(): boolean {
  return secrets.size > 0;
}

export function redact(text: string): string {
  if (matchers.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [from, to] of spans(text)) {
    out += text.slice(at, from) + REDACTED;
    at = to;
  }
  return out + text.slice(at);
}

/** Header names whose values are credentials (C8), whatever the flag they came from. */
export function isCredentialHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|passw|session|auth/i.test(name);
}
