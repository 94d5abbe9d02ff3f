/** POSIX shell quoting, for a command line given as one string: an argument holding anything the shell would split or change is single-quoted. */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

const CONTROL: Record<string, string> = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A command quoted as the shell reads it back, on one line: a control or separator character escaped too, since a
 * newline would cut a spawn error to its first line.
 */
export function shellLine(argv: readonly string[]): string {
  return shellQuote(
    argv.map((w) => w.replace(/[\p{Separator}\p{Other}]/gu, (c) => (c === " " ? c : (CONTROL[c] ?? `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`)))),
  );
}
