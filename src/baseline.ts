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
import { EXCLUDED } from "../checks/excluded.ts";
import { CHECKS } from "../checks/index.ts";
import type { CheckResult } from "../checks/kit/check.ts";

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

// ---- a small strict JSON reader that knows where things are -------------
// JSON.parse on Node 20 names no position in its errors; a baseline error must.

type JNode =
  | { t: "object"; at: number; members: { key: string; keyAt: number; value: JNode }[] }
  | { t: "array"; at: number; items: JNode[] }
  | { t: "string"; at: number; value: string }
  | { t: "number" | "true" | "false" | "null"; at: number };

class JsonError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

function readJson(src: string): JNode {
  let i = 0;
  const ws = (): void => {
    while (i < src.length && " \t\n\r".includes(src[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonError(i >= src.length ? `unexpected end of input, expected ${what}` : `unexpected ${JSON.stringify(src[i])}, expected ${what}`, i);
  };
  const str = (): { t: "string"; at: number; value: string } => {
    const at = i;
    if (src[i] !== '"') fail("a string");
    i++;
    let out = "";
    for (;;) {
      const c = src[i];
      if (c === undefined) throw new JsonError("unterminated string", at);
      if (c === '"') {
        i++;
        return { t: "string", at, value: out };
      }
      if (c < " ") throw new JsonError("a control character inside a string (escape it)", i);
      if (c === "\\") {
        const e = src[i + 1];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          throw new JsonError("an invalid escape in a string", i);
        }
        continue;
      }
      out += c;
      i++;
    }
  };
  const value = (): JNode => {
    ws();
    const at = i;
    const c = src[i];
    if (c === "{") {
      i++;
      const members: { key: string; keyAt: number; value: JNode }[] = [];
      ws();
      if (src[i] === "}") {
        i++;
        return { t: "object", at, members };
      }
      for (;;) {
        ws();
        const k = str();
        const dup = members.find((m) => m.key === k.value);
        if (dup) throw new JsonError(`member ${JSON.stringify(k.value)} appears twice`, k.at);
        ws();
        if (src[i] !== ":") fail('":"');
        i++;
        members.push({ key: k.value, keyAt: k.at, value: value() });
        ws();
        if (src[i] === ",") {
          i++;
          continue;
        }
        if (src[i] === "}") {
          i++;
          return { t: "object", at, members };
        }
        fail('"," or "}"');
      }
    }
    if (c === "[") {
      i++;
      const items: JNode[] = [];
      ws();
      if (src[i] === "]") {
        i++;
        return { t: "array", at, items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (src[i] === ",") {
          i++;
          continue;
        }
        if (src[i] === "]") {
          i++;
          return { t: "array", at, items };
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') return str();
    for (const word of ["true", "false", "null"] as const) {
      if (src.startsWith(word, i)) {
        i += word.length;
        return { t: word, at };
      }
    }
    const num = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      i += num[0].length;
      return { t: "number", at };
    }
    return fail("a JSON value");
  };
  const root = value();
  ws();
  if (i < src.length) fail("the end of input");
  return root;
}

// ---- parsing ---------------------------------------------------------------

function lineCol(text: string, at: number): { line: number; col: number } {
  const before = text.slice(0, at).split("\n");
  return { line: before.length, col: before[before.length - 1]!.length + 1 };
}

const kindOf = (n: JNode): string => (n.t === "true" || n.t === "false" ? "a boolean" : n.t === "null" ? "null" : n.t === "array" ? "an array" : n.t === "object" ? "an object" : `a ${n.t}`);

/** Why `id` cannot be in a baseline, or undefined when it can. */
function unknownId(id: string, registered: readonly string[]): string | undefined {
  if (registered.includes(id)) return undefined;
  const exc = Object.keys(EXCLUDED).find((a) => a.toUpperCase() === id.toUpperCase());
  if (exc) return `${exc} is excluded, so no check runs for it and it can never fail (${EXCLUDED[exc]})`;
  const near = registered.find((r) => r.toUpperCase() === id.toUpperCase());
  if (near) return `${JSON.stringify(id)} is not a registered check (did you mean ${near}?)`;
  if (id.includes("*")) return `${JSON.stringify(id)}: a baseline lists exact check ids, not globs`;
  return `${JSON.stringify(id)} is not a registered check (list shows them all)`;
}

function parseJson(text: string, registered: readonly string[]): Baseline {
  const where = (at: number, msg: string): Error => {
    const { line, col } = lineCol(text, at);
    return new Error(`baseline line ${line}, column ${col}: ${msg}`);
  };
  let root: JNode;
  try {
    root = readJson(text);
  } catch (e) {
    if (e instanceof JsonError) throw where(e.at, `invalid JSON: ${e.message}`);
    throw e;
  }
  if (root.t !== "object") throw where(root.at, `expected an object like {"expect_fail": ["B3"]}, got ${kindOf(root)}`);
  for (const m of root.members) {
    if (m.key !== "expect_fail") throw where(m.keyAt, `unknown member ${JSON.stringify(m.key)}: a baseline has only "expect_fail"`);
  }
  const list = root.members.find((m) => m.key === "expect_fail");
  if (!list) throw where(root.at, 'no "expect_fail" member: write {"expect_fail": []} for an empty baseline');
  const raw: { id: string; at: number; reason?: string; path: string }[] = [];
  const v = list.value;
  if (v.t === "array") {
    v.items.forEach((item, k) => {
      if (item.t !== "string") throw where(item.at, `expect_fail[${k}] must be a check id string, got ${kindOf(item)}`);
      raw.push({ id: item.value, at: item.at, path: `expect_fail[${k}]` });
    });
  } else if (v.t === "object") {
    for (const m of v.members) {
      if (m.value.t !== "string") throw where(m.value.at, `expect_fail.${m.key} must be a reason string, got ${kindOf(m.value)}`);
      const reason = m.value.value.trim();
      raw.push({ id: m.key, at: m.keyAt, path: `expect_fail.${m.key}`, ...(reason ? { reason } : {}) });
    }
  } else {
    throw where(v.at, `expect_fail must be an array of check ids or an object of id → reason, got ${kindOf(v)}`);
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

function parseText(text: string, registered: readonly string[]): Baseline {
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
export function parseBaseline(text: string, registered: readonly string[] = CHECKS.map((c) => c.id)): Baseline {
  const body = text.replace(/^\uFEFF/, "");
  return /^\s*[{[]/.test(body) ? parseJson(body, registered) : parseText(body, registered);
}

// ---- judging ---------------------------------------------------------------

export interface BaselineJudgement {
  /** Green iff every failing check is baselined. */
  ok: boolean;
  /** Failed, and not in the baseline: these make the run red. */
  unexpected: string[];
  /** Baselined, and now pass, warn or info: tighten the baseline. */
  fixed: string[];
  /** Baselined, and still failing: as expected. */
  stillFailing: string[];
  /** Baselined, but the check was skipped this run (it did not apply). */
  skipped: string[];
  /** Baselined, but not in this run at all (left out by --only / --skip). */
  notRun: string[];
}

/** Hold a run's results to a baseline. Apply --strict first, if given: the baseline judges the final statuses. */
export function judgeBaseline(results: CheckResult[], b: Baseline): BaselineJudgement {
  const listed = new Set(b.entries.map((e) => e.id));
  const j: BaselineJudgement = { ok: true, unexpected: [], fixed: [], stillFailing: [], skipped: [], notRun: [] };
  for (const r of results) {
    if (!listed.has(r.id)) {
      if (r.status === "fail") j.unexpected.push(r.id);
      continue;
    }
    if (r.status === "fail") j.stillFailing.push(r.id);
    else if (r.status === "skip") j.skipped.push(r.id);
    else j.fixed.push(r.id);
  }
  const ran = new Set(results.map((r) => r.id));
  j.notRun = b.entries.map((e) => e.id).filter((id) => !ran.has(id));
  j.ok = j.unexpected.length === 0;
  return j;
}

/** Human-readable lines for a judgement; pass the baseline too to show each entry's reason. */
export function renderBaselineSummary(j: BaselineJudgement, b?: Baseline): string {
  const reasons = new Map((b?.entries ?? []).map((e) => [e.id, e.reason]));
  const ids = (xs: string[]): string => xs.map((id) => (reasons.get(id) ? `${id} (${reasons.get(id)})` : id)).join(", ");
  const n = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`;
  const out: string[] = [];
  if (j.unexpected.length > 0) out.push(`${n(j.unexpected.length, "failure is", "failures are")} not in the baseline: ${j.unexpected.join(", ")}`);
  if (j.stillFailing.length > 0) out.push(`${n(j.stillFailing.length, "baselined check fails", "baselined checks fail")} as expected: ${ids(j.stillFailing)}`);
  if (j.fixed.length > 0) out.push(`${n(j.fixed.length, "baselined check no longer fails", "baselined checks no longer fail")}: ${ids(j.fixed)}; remove ${j.fixed.length === 1 ? "it" : "them"} from the baseline`);
  if (j.skipped.length > 0) out.push(`${n(j.skipped.length, "baselined check was", "baselined checks were")} skipped this run: ${ids(j.skipped)}`);
  if (j.notRun.length > 0) out.push(`${n(j.notRun.length, "baselined check was", "baselined checks were")} not selected this run: ${ids(j.notRun)}`);
  out.push(
    j.ok
      ? j.stillFailing.length > 0
        ? "baseline: green (every failure is baselined)"
        : "baseline: green (no failures)"
      : `baseline: red (${n(j.unexpected.length, "unexpected failure", "unexpected failures")})`,
  );
  return out.map((l, k) => (k === out.length - 1 ? l : `baseline: ${l}`)).join("\n");
}
