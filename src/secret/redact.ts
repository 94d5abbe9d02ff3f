/**
 * C8: "A host MUST NOT log, or place in an error surfaced off-machine, any
 * bearer token, credential, or authorization header." Every secret read is
 * registered here, and everything cgp-conform writes out passes through
 * redact(), so a token cannot leak through a message we did not foresee.
 */
const secrets = new Set<string>();

export const REDACTED = "[redacted]";

export function registerSecret(s: string): void {
  if (s.length > 0) secrets.add(s);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(REDACTED);
  return out;
}
