/**
 * `--only` / `--skip`: which registered checks a run scores. Pure: the CLI
 * turns a thrown Error or a non-empty `unmatched` into a usage error.
 *
 * A pattern is one of
 *   - an exact id:     H1, S2-framing
 *   - a glob with `*`: B*, S6-*, *
 *   - a numeric range within one letter prefix: F11-F13, F11-13, B1-B3
 *
 * `S2-framing` is an id, not a range: a range has digits on both sides of its
 * dash (`<letters><n>-<letters><m>` with the same letters, or `<letters><n>-<m>`).
 * A range matches a check by its anchor, the id up to its first dash, so
 * `S2-S6` covers S2-framing, S2-envelope, S6-as-of and S6-signatures.
 * Matching ignores case (`h1` is H1); reports use the registry's spelling.
 */
import { EXCLUDED } from "../../checks/excluded.ts";
import { type CheckDef } from "../../checks/kit/check.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";

/** The anchors only a host check covers (C2, C8, …), and the command that runs it. */
const HOST_ONLY: Readonly<Record<string, string>> = Object.fromEntries(
  HOST_CHECKS.filter((c) => !/^S\d+-/.test(c.anchor)).map((c) => [c.anchor, `is a host rule: cgp-conform host runs ${c.id}`]),
);

export type Pattern =
  | { kind: "id"; source: string; id: string }
  | { kind: "glob"; source: string; re: RegExp }
  | { kind: "range"; source: string; prefix: string; from: number; to: number };

const ID = /^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$/;
const GLOB = /^[A-Za-z0-9*-]+$/;
const RANGE = /^([A-Za-z]+)(\d+)-([A-Za-z]*)(\d+)$/;
const ANCHOR = /^([A-Za-z]+)(\d+)(?:-|$)/;

function parseOne(raw: string, value: string): Pattern {
  const source = raw.trim();
  if (source === "") throw new Error(`empty pattern in "${value}": give an id (H1), a glob (B*) or a range (F11-F13)`);
  const range = RANGE.exec(source);
  if (range) {
    const [, prefix, a, again, b] = range as unknown as [string, string, string, string, string];
    if (again !== "" && again.toUpperCase() !== prefix.toUpperCase()) {
      throw new Error(`range "${source}" crosses letter prefixes (${prefix} to ${again}): a range stays within one prefix, e.g. ${prefix}${a}-${prefix}${b}`);
    }
    const from = Number(a);
    const to = Number(b);
    if (from > to) throw new Error(`range "${source}" runs backwards: write ${prefix}${b}-${prefix}${a}`);
    return { kind: "range", source, prefix: prefix.toUpperCase(), from, to };
  }
  if (source.includes("*")) {
    if (!GLOB.test(source)) throw new Error(`pattern "${source}" has characters a check id never has (ids are letters, digits and dashes; globs add *)`);
    // Only letters, digits, dashes and * remain: nothing else needs escaping.
    return { kind: "glob", source, re: new RegExp(`^${source.split("*").join(".*")}$`, "i") };
  }
  if (!ID.test(source)) throw new Error(`pattern "${source}" is not a check id, a glob with *, or a range like F11-F13`);
  return { kind: "id", source, id: source };
}

/** Parse `--only` / `--skip` values, each a comma-separated list of patterns. Throws on a malformed one. */
export function parsePatterns(values: string[]): Pattern[] {
  return values.flatMap((value) => value.split(",").map((raw) => parseOne(raw, value)));
}

/** The anchor of an id, split into letters and number: S2-framing → ["S", 2]. */
function anchorOf(id: string): [string, number] | undefined {
  const m = ANCHOR.exec(id);
  return m ? [m[1]!.toUpperCase(), Number(m[2])] : undefined;
}

export function matchesPattern(p: Pattern, id: string): boolean {
  switch (p.kind) {
    case "id":
      return p.id.toUpperCase() === id.toUpperCase();
    case "glob":
      return p.re.test(id);
    case "range": {
      const a = anchorOf(id);
      return a !== undefined && a[0] === p.prefix && a[1] >= p.from && a[1] <= p.to;
    }
  }
}

export interface Selection<C extends { id: string } = CheckDef> {
  /** The checks to run, in registry order. */
  selected: C[];
  /** Patterns (as written) that match no registered check: a usage error for the CLI. */
  unmatched: string[];
  /** What a user should know, e.g. that an unmatched pattern names an excluded anchor, and why it is excluded. */
  notes: string[];
}

/**
 * `only` keeps what any of its patterns matches (undefined or empty: keep all);
 * `skip` then removes what any of its patterns matches. Every pattern is held
 * to the registry, not to what the other list left, so a typo in either is caught.
 */
export function selectChecks<C extends { id: string } = CheckDef>(
  checks: readonly C[],
  only: Pattern[] | undefined,
  skip: Pattern[] | undefined,
  excluded: Readonly<Record<string, string>> = EXCLUDED,
  /** Anchors checked by another command, and where (a host rule is checked by cgp-conform host): named when a pattern matches one. */
  elsewhere: Readonly<Record<string, string>> = HOST_ONLY,
): Selection<C> {
  const unmatched: string[] = [];
  const notes: string[] = [];
  const note = (s: string): void => {
    if (!notes.includes(s)) notes.push(s);
  };
  const excludedIds = Object.keys(excluded);
  const audit = (patterns: Pattern[], flag: "--only" | "--skip"): void => {
    for (const p of patterns) {
      const hits = checks.filter((c) => matchesPattern(p, c.id));
      const named = excludedIds.filter((a) => matchesPattern(p, a));
      const other = Object.keys(elsewhere).filter((a) => matchesPattern(p, a) && !checks.some((c) => c.id === a));
      if (hits.length === 0) {
        if (!unmatched.includes(p.source)) unmatched.push(p.source);
        if (named.length === 0 && other.length === 0) note(`${flag} ${p.source} matches no registered check`);
        for (const a of named) note(`${flag} ${p.source}: ${a} is excluded, so no check runs for it: ${excluded[a]}`);
        for (const a of other) note(`${flag} ${p.source}: ${a} ${elsewhere[a]}`);
      } else if (flag === "--only" && named.length > 0) {
        const list = named.join(", ");
        note(`--only ${p.source} also names excluded anchor${named.length > 1 ? "s" : ""} ${list}, which no check runs for (explain ${named[0]} says why)`);
      }
    }
  };
  audit(only ?? [], "--only");
  audit(skip ?? [], "--skip");
  const kept = only && only.length > 0 ? checks.filter((c) => only.some((p) => matchesPattern(p, c.id))) : [...checks];
  const selected = kept.filter((c) => !(skip ?? []).some((p) => matchesPattern(p, c.id)));
  return { selected, unmatched, notes };
}
