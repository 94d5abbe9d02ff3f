/**
 * A baseline lists the checks a team expects to fail, so it can ship with
 * known failures while any new one still turns the run red. Two forms:
 *
 *   JSON:  { "expect_fail": ["B3", "F5"] }
 *          { "expect_fail": { "B3": "tokenizer fix in #42", "F5": "" } }
 *   text:  one check id per line; `#` starts a comment; blank lines are
 *          ignored; a comment after an id is that id's reason:
 *              # known failures
 *              B3   # tokenizer fix in #42
 *              F5
 *
 * A file whose first non-blank character is `{` or `[` is JSON. Ids are
 * exact registered check ids (no globs: a baseline is an explicit list).
 * Pure: the CLI reads the file and turns a thrown Error into a usage error.
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { type CheckResult } from "./status.ts";

export interface BaselineEntry {
  id: string;
  /** Why it is expected to fail (JSON object value, or the comment after the id). */
  reason?: string;
  /** 1-based line of the id in the baseline file. */
  line: number;
}

export interface Baseline {
  format: "json" | "text";
  /** In file order, each id once. */
  entries: BaselineEntry[];
}

// ---- parsing ---------------------------------------------------------------

// JSON.parse names at most an offset (worded differently on Node and Bun);
// a baseline error must name a line and column, so jsonc-parser reads it.
const STRICT = { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false };
// jsonc-parser puts a string's errors at its opening quote; the offending
// character is where the longest valid string prefix stops.
const STRING_ERRORS: ReadonlySet<string> = new Set(["UnexpectedEndOfString", "InvalidCharacter", "InvalidEscapeCharacter", "InvalidUnicode"]);
const VALID_STRING_PREFIX = /^"(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})|(?!["\\])[ -\uffff])*/;

function lineCol(text: string, at: number): { line: number; col: number } {
  const before = text.slice(0, at).split("\n");
  return { line: before.length, col: before[before.length - 1]!.length + 1 };
}

/** Read strict JSON, or throw `where` the first problem is. */
function readJson(text: string, where: (at: number, msg: string) => Error): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT);
  const problems = errors.map(({ error, offset }) => {
    const code = printParseErrorCode(error);
    const at = STRING_ERRORS.has(code) ? offset + (VALID_STRING_PREFIX.exec(text.slice(offset))?.[0].length ?? 0) : offset;
    const what = code.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();
    return { at, msg: `${what}, found ${at < text.length ? JSON.stringify(text[at]) : "end of input"}` };
  });
  // Strict JSON has no duplicate keys, but JSON.parse and jsonc-parser both keep the last.
  const dups = (n: Node): void => {
    const keys = new Set<string>();
    for (const p of n.type === "object" ? (n.children ?? []) : []) {
      const k = p.children![0]!;
      if (keys.has(k.value)) problems.push({ at: k.offset, msg: `member ${JSON.stringify(k.value)} appears twice` });
      keys.add(k.value);
    }
    n.children?.forEach(dups);
  };
  if (root) dups(root);
  const first = problems.sort((a, b) => a.at - b.at)[0];
  if (first) throw where(first.at, `invalid JSON: ${first.msg}`);
  return root!;
}

const members = (n: Node): { key: Node; value: Node }[] => (n.children ?? []).map((p) => ({ key: p.children![0]!, value: p.children![1]! }));

const kindOf = (n: Node): string =>
  n.type === "boolean" ? "a boolean" : n.type === "null" ? "null" : n.type === "array" ? "an array" : n.type === "object" ? "an object" : `a ${n.type}`;

/** Why `id` cannot be in a baseline, or undefined when it can. */
/** The anchors a baseline may name: every registered check id, and the excluded anchors with why (to explain a refusal). */
export interface Registry {
  ids: readonly string[];
  excluded: Readonly<Record<string, string>>;
}

function unknownId(id: string, registry: Registry): string | undefined {
  const registered = registry.ids;
  if (registered.includes(id)) return undefined;
  const exc = Object.keys(registry.excluded).find((a) => a.toUpperCase() === id.toUpperCase());
  if (exc) return `${exc} is excluded, so no check runs for it and it can never fail (${registry.excluded[exc]})`;
  const near = registered.find((r) => r.toUpperCase() === id.toUpperCase());
  if (near) return `${JSON.stringify(id)} is not a registered check (did you mean ${near}?)`;
  if (id.includes("*")) return `${JSON.stringify(id)}: a baseline lists exact check ids, not globs`;
  return `${JSON.stringify(id)} is not a registered check (list shows them all)`;
}

function parseJson(text: string, registered: Registry): Baseline {
  const where = (at: number, msg: string): Error => {
    const { line, col } = lineCol(text, at);
    return new Error(`baseline line ${line}, column ${col}: ${msg}`);
  };
  const root = readJson(text, where);
  if (root.type !== "object") throw where(root.offset, `expected an object like {"expect_fail": ["B3"]}, got ${kindOf(root)}`);
  for (const m of members(root)) {
    if (m.key.value !== "expect_fail") throw where(m.key.offset, `unknown member ${JSON.stringify(m.key.value)}: a baseline has only "expect_fail"`);
  }
  const list = members(root).find((m) => m.key.value === "expect_fail");
  if (!list) throw where(root.offset, 'no "expect_fail" member: write {"expect_fail": []} for an empty baseline');
  const raw: { id: string; at: number; reason?: string; path: string }[] = [];
  const v = list.value;
  if (v.type === "array") {
    (v.children ?? []).forEach((item, k) => {
      if (item.type !== "string") throw where(item.offset, `expect_fail[${k}] must be a check id string, got ${kindOf(item)}`);
      raw.push({ id: item.value, at: item.offset, path: `expect_fail[${k}]` });
    });
  } else if (v.type === "object") {
    for (const { key, value } of members(v)) {
      if (value.type !== "string") throw where(value.offset, `expect_fail.${key.value} must be a reason string, got ${kindOf(value)}`);
      const reason = (value.value as string).trim();
      raw.push({ id: key.value, at: key.offset, path: `expect_fail.${key.value}`, ...(reason ? { reason } : {}) });
    }
  } else {
    throw where(v.offset, `expect_fail must be an array of check ids or an object of id → reason, got ${kindOf(v)}`);
  }
  const entries: BaselineEntry[] = [];
  for (const r of raw) {
    const why = unknownId(r.id, registered);
    if (why) throw where(r.at, `${r.path}: ${why}`);
    const line = lineCol(text, r.at).line;
    const seen = entries.find((e) => e.id === r.id);
    if (seen) throw where(r.at, `${r.path}: ${r.id} is listed twice (first on line ${seen.line})`);
    entries.push({ id: r.id, line, ...(r.reason ? { reason: r.reason } : {}) });
  }
  return { format: "json", entries };
}

function parseText(text: string, registered: Registry): Baseline {
  const entries: BaselineEntry[] = [];
  text.split(/\r?\n/).forEach((raw, k) => {
    const line = k + 1;
    const hash = raw.indexOf("#");
    const body = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (body === "") return;
    if (/\s/.test(body)) throw new Error(`baseline line ${line}: one check id per line, got ${JSON.stringify(body)}`);
    const why = unknownId(body, registered);
    if (why) throw new Error(`baseline line ${line}: ${why}`);
    const seen = entries.find((e) => e.id === body);
    if (seen) throw new Error(`baseline line ${line}: ${body} is listed twice (first on line ${seen.line})`);
    const reason = hash === -1 ? "" : raw.slice(hash + 1).trim();
    entries.push({ id: body, line, ...(reason ? { reason } : {}) });
  });
  return { format: "text", entries };
}

/**
 * Parse a baseline file's text. Throws an Error naming the line (and, for
 * JSON, the column) of malformed input, an id that is not a registered
 * check, or an id listed twice.
 */
export function parseBaseline(text: string, registered: Registry): Baseline {
  const body = text.replace(/^\uFEFF/, "");
  return /^\s*[{[]/.test(body) ? parseJson(body, registered) : parseText(body, registered);
}

// ---- judging ---------------------------------------------------------------

export interface BaselineJudgement {
  /** Green iff every failing check is baselined. */
  ok: boolean;
  /** Failed, and not in the baseline: these make the run red. */
  unexpected: string[];
  /** Baselined, and now pass: the baseline is stale; they make the run red unless stale entries are allowed. */
  fixed: string[];
  /** Baselined, and now warn or info: not failing, yet not shown to pass (a SHOULD shortfall, or a byte check not made here): reported, never red. */
  not_failing: string[];
  /** --allow-stale-baseline: a baselined check that now passes does not make the run red. */
  allow_stale: boolean;
  /** Baselined, and still failing: as expected. */
  still_failing: string[];
  /** Baselined, but the check was skipped this run (it did not apply). */
  skipped: string[];
  /** Baselined, but not in this run at all (left out by --only / --skip). */
  not_run: string[];
}

/** Hold a run's results to a baseline. Apply --strict first, if given: the baseline judges the final statuses. */
export function judgeBaseline(results: CheckResult[], b: Baseline, allowStale = false): BaselineJudgement {
  const listed = new Set(b.entries.map((e) => e.id));
  const j: BaselineJudgement = { ok: true, unexpected: [], fixed: [], not_failing: [], allow_stale: allowStale, still_failing: [], skipped: [], not_run: [] };
  for (const r of results) {
    // A check not observed gates like a failure: red unless the baseline lists it.
    const failing = r.status === "fail" || r.status === "unobserved";
    if (!listed.has(r.id)) {
      if (failing) j.unexpected.push(r.id);
      continue;
    }
    if (failing) j.still_failing.push(r.id);
    else if (r.status === "skip") j.skipped.push(r.id);
    else if (r.status === "pass") j.fixed.push(r.id);
    else j.not_failing.push(r.id);
  }
  const ran = new Set(results.map((r) => r.id));
  j.not_run = b.entries.map((e) => e.id).filter((id) => !ran.has(id));
  // A check that passes while listed as failing would hide its next regression: the baseline must be tightened.
  j.ok = j.unexpected.length === 0 && (allowStale || j.fixed.length === 0);
  return j;
}

/** A baseline in the text form, listing the checks that failed in a run, each with its title as the reason. */
export function writeBaselineText(results: readonly CheckResult[], about: string): string {
  const failing = results.filter((r) => r.status === "fail" || r.status === "unobserved");
  const width = Math.max(0, ...failing.map((r) => r.id.length));
  return [
    `# cgp-conform baseline: the checks expected to fail (${about.replace(/[\r\n\u2028\u2029]+/g, " ")})`,
    "# a run with --baseline FILE is green while only these fail; remove an id once its check passes",
    ...failing.map((r) => `${r.id.padEnd(width)}  # ${r.title}${r.status === "unobserved" ? " (not observed this run)" : ""}`),
    "",
  ].join("\n");
}
