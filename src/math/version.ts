/**
 * §3.1: version-string = "contextgraph/" major "." minor [ "-draft" ].
 * "The major family is the substring up to (not including) the first ."
 */
export const VERSION_GRAMMAR = /^contextgraph\/(\d+)\.(\d+)(-draft)?$/;

/** The protocol version cgp-conform speaks as a host. */
export const HOST_VERSION = "contextgraph/1.0";

/** A version from a family no provider of this revision can share. */
export const FOREIGN_VERSION = "contextgraph/99.0";
/** A foreign family whose name begins with the host's: "10" is not "1", though a string prefix test says it is. */
export const PREFIX_FOREIGN_VERSION = "contextgraph/10.0";

export function isVersionString(v: unknown): v is string {
  return typeof v === "string" && VERSION_GRAMMAR.test(v);
}

/** The major family of a version string, or undefined if it does not parse. */
export function family(v: unknown): string | undefined {
  if (!isVersionString(v)) return undefined;
  return v.slice(0, v.indexOf("."));
}

export function sameFamily(a: unknown, b: unknown): boolean {
  const fa = family(a);
  return fa !== undefined && fa === family(b);
}
