/**
 * Architecture rules over the import graph, kept in .dependency-cruiser.cjs (the one source: the
 * same file drives `npx depcruise --config .dependency-cruiser.cjs bin src checks misbehave scripts`),
 * and the purity rule over the code of every module reachable from checks/ (test/helpers/purity.ts:
 * the globals that touch the world without an import).
 *
 * 1. The real tree breaks none of them; every violation is listed (rule, from → to, the via path
 *    of a transitive one, the cycle of a circular one; file:line:col, the expression and why, for
 *    purity) so the message says what to move.
 * 2. Every rule can fail: a tree with one planted violation per rule (per forbidden use, for
 *    purity), written to a temp dir at test time, makes each rule fire, and nothing else fire
 *    (clean neighbours are planted too).
 */
import type { ICruiseOptions, ICruiseResult, IMiniDependency, IViolation } from "dependency-cruiser";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { ALLOWED, describeImpurity, impurities, judgeAllowed, reachable, WHY, type Impurity, type Kind } from "./helpers/purity.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const ENTRIES = ["bin", "src", "checks", "misbehave", "scripts"];

/** Cruise `entries` under `baseDir` with the rules and options of .dependency-cruiser.cjs. */
async function cruiseWithConfig(baseDir: string, entries: string[]): Promise<{ result: ICruiseResult; options: ICruiseOptions }> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfigFile = join(baseDir, "tsconfig.json");
  const cruiseOptions: ICruiseOptions = { ...options, baseDir, tsConfig: { fileName: tsConfigFile }, outputType: "json" };
  const reported = await cruise(entries, cruiseOptions, undefined, { tsConfig: extractTSConfig(tsConfigFile) });
  const result = typeof reported.output === "string" ? (JSON.parse(reported.output) as ICruiseResult) : reported.output;
  return { result, options };
}

const ruleNames = (options: ICruiseOptions): string[] => (options.ruleSet?.forbidden ?? []).map((r) => r.name ?? "");

/** " [type-only]" when an edge exists only before compilation (an `import type`). */
const typeOnly = (types: readonly string[] | undefined): string => (types?.includes("type-only") ? " [type-only]" : "");
const chain = (steps: readonly IMiniDependency[]): string => steps.map((s) => `${s.name}${typeOnly(s.dependencyTypes)}`).join(" → ");

/** One line per violation: rule, from → to, and the via path or the cycle. */
function describe(v: IViolation): string {
  const head = `${v.rule.name}: ${v.from} → ${v.to}`;
  if (v.via?.length) return `${head}  (via ${v.from} → ${chain(v.via)})`;
  if (v.cycle?.length) return `${head}  (cycle ${v.from} → ${chain(v.cycle)})`;
  return `${head}${typeOnly(v.dependencyTypes)}`;
}

/** Violations in rule order (as in the config), then by from and to. */
function sorted(violations: readonly IViolation[], order: string[]): IViolation[] {
  const rank = (v: IViolation) => order.indexOf(v.rule.name);
  return [...violations].sort((a, b) => rank(a) - rank(b) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** The real tree's cruise, run once and shared by the import rules and the purity rule. */
let realCruise: Promise<{ result: ICruiseResult; options: ICruiseOptions; ms: number }> | undefined;
const real = () =>
  (realCruise ??= (async () => {
    const started = performance.now();
    const cruised = await cruiseWithConfig(ROOT, ENTRIES);
    return { ...cruised, ms: Math.round(performance.now() - started) };
  })());

t.test("the real tree keeps the architecture rules", async (t) => {
  const { result, options, ms } = await real();

  // A cruise that resolved nothing would pass every rule vacuously: make sure it saw the tree,
  // followed .ts specifiers, and recognised node core modules as such.
  const modules = result.modules;
  t.ok(
    modules.some((m) => m.source.startsWith("checks/") && m.dependencies.some((d) => d.resolved.startsWith("src/"))),
    "checks' .ts imports resolve into src/",
  );
  t.ok(
    modules.some((m) => m.coreModule && /^(node:)?fs$/.test(m.source)),
    "node:fs is seen, as a core module",
  );
  t.ok(
    modules.some((m) => m.source.startsWith("node_modules/") && m.matchesDoNotFollow),
    "npm packages are seen and not followed",
  );
  t.notOk(
    modules.some((m) => m.source.startsWith("test/")),
    "the cruise stays in the project folders",
  );

  const violations = sorted(result.summary.violations, ruleNames(options));
  const lines = violations.map(describe);
  const perRule = new Map<string, number>();
  for (const v of violations) perRule.set(v.rule.name, (perRule.get(v.rule.name) ?? 0) + 1);
  const counts = [...perRule].map(([rule, n]) => `${rule} ${n}`).join(", ");
  t.comment(`cruised ${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies in ${ms} ms`);

  // tap folds a message onto one line, so the list (one violation a line) is the assertion's
  // diagnostics; `entries` condenses the transitive ones to the edges where the path first
  // steps onto forbidden ground (cut those and the violations behind them go).
  if (lines.length === 0) t.pass("no architecture violations");
  else
    t.fail(`${lines.length} architecture violation(s) (${counts}), listed under 'violations'; each rule's reason is in .dependency-cruiser.cjs`, {
      violations: lines,
      entries: entryEdges(violations, options),
    });
});

/** For reachability violations: the distinct edges where a via path first enters what its rule forbids. */
function entryEdges(violations: readonly IViolation[], options: ICruiseOptions): string[] {
  const edges = new Set<string>();
  for (const v of violations) {
    if (!v.via?.length) continue;
    const rule = options.ruleSet?.forbidden?.find((r) => r.name === v.rule.name);
    const to = rule && "to" in rule ? rule.to : undefined;
    const forbidden = [to?.path ?? []].flat().map((p) => new RegExp(p));
    const steps = [v.from, ...v.via.map((s) => s.name)];
    const at = steps.findIndex((name, i) => i > 0 && forbidden.some((re) => re.test(name)));
    if (at > 0) edges.add(`${v.rule.name}: ${steps[at - 1]} → ${steps[at]}${typeOnly(v.via[at - 1]?.dependencyTypes)}`);
  }
  return [...edges].sort();
}

/** Where the purity rule starts: it holds these modules and everything they reach at run time. */
const PURE_ROOTS = /^checks\//;

t.test("nothing reachable from checks/ touches the world in its code", async (t) => {
  const { result } = await real();
  const files = reachable(result.modules, PURE_ROOTS);
  // A rule that read nothing would pass vacuously: it reads the checks, host checks, kit, and the src/ they import.
  for (const folder of ["checks/host/", "checks/kit/", "src/math/", "src/protocol/", "src/schema/"])
    t.ok(
      files.some((f) => f.startsWith(folder)),
      `the rule reads ${folder}`,
    );

  const found = files.flatMap((f) => impurities(f, readFileSync(join(ROOT, f), "utf8")));
  const { violations, stale } = judgeAllowed(found);
  t.comment(`read ${files.length} modules reachable from checks/; ${found.length - violations.length} use(s) allowed in ALLOWED (${ALLOWED.length} entries)`);
  if (violations.length === 0)
    t.pass("no module reachable from checks/ reads the clock, randomness or the process, reaches the network, sets a timer, or loads code");
  else
    t.fail(
      `${violations.length} forbidden use(s) of the world in code reachable from checks/, listed under 'violations': pass the value in, or (only if truly pure) allow it in ALLOWED of test/helpers/purity.ts with the reason`,
      { violations: violations.map(describeImpurity) },
    );
  t.strictSame(stale, [], "every ALLOWED entry still matches a use");
});

/** A planted use the purity rule must find: `code` is the file's second line, `expression` where in it. */
interface ImpureUse {
  file: string;
  code: string;
  what: string;
  kind: Kind;
  expression: string;
}

/** One planted use per forbidden form, each in its own file (under checks/impure/, but via-src.ts's in src/math/). */
const IMPURE: ImpureUse[] = [
  { file: "checks/impure/date-now.ts", code: "export const at = () => Date.now();", what: "Date.now", kind: "clock", expression: "Date.now()" },
  { file: "checks/impure/new-date.ts", code: "export const at = () => new Date().toISOString();", what: "new Date()", kind: "clock", expression: "new Date()" },
  { file: "checks/impure/date-call.ts", code: "export const at = () => Date();", what: "Date()", kind: "clock", expression: "Date()" },
  {
    file: "checks/impure/performance.ts",
    code: "export const at = () => performance.now();",
    what: "performance",
    kind: "clock",
    expression: "performance.now()",
  },
  {
    file: "checks/impure/math-random.ts",
    code: "export const pick = (xs: string[]) => xs[Math.floor(Math.random() * xs.length)];",
    what: "Math.random",
    kind: "random",
    expression: "Math.random()",
  },
  {
    file: "checks/impure/random-uuid.ts",
    code: "export const id = () => crypto.randomUUID();",
    what: "crypto.randomUUID",
    kind: "random",
    expression: "crypto.randomUUID()",
  },
  {
    file: "checks/impure/random-values.ts",
    code: "export const bytes = () => crypto.getRandomValues(new Uint8Array(8));",
    what: "crypto.getRandomValues",
    kind: "random",
    expression: "crypto.getRandomValues(new Uint8Array(8))",
  },
  {
    file: "checks/impure/random-import.ts",
    code: 'import { randomBytes } from "node:crypto";\nexport const salt = () => randomBytes(8);',
    what: 'randomBytes from "node:crypto"',
    kind: "random",
    expression: "randomBytes",
  },
  {
    file: "checks/impure/process.ts",
    code: 'export const debug = process.env.CGP_DEBUG === "1";',
    what: "process",
    kind: "process",
    expression: "process.env.CGP_DEBUG",
  },
  {
    file: "checks/impure/process-import.ts",
    code: 'import { env } from "node:process";\nexport const debug = env.CGP_DEBUG;',
    what: 'import "node:process"',
    kind: "process",
    expression: 'import { env } from "node:process";',
  },
  {
    file: "checks/impure/fetch.ts",
    code: 'export const ping = () => fetch("http://localhost/");',
    what: "fetch",
    kind: "network",
    expression: 'fetch("http://localhost/")',
  },
  {
    file: "checks/impure/timer.ts",
    code: "export const later = (f: () => void) => setTimeout(f, 10);",
    what: "setTimeout",
    kind: "timer",
    expression: "setTimeout(f, 10)",
  },
  {
    file: "checks/impure/require.ts",
    code: 'export const load = () => require("node:path");',
    what: "require",
    kind: "loader",
    expression: 'require("node:path")',
  },
  {
    file: "checks/impure/import.ts",
    code: 'export const load = () => import("node:path");',
    what: "import()",
    kind: "loader",
    expression: 'import("node:path")',
  },
  { file: "checks/impure/bun.ts", code: "export const read = (p: string) => Bun.file(p);", what: "Bun", kind: "runtime", expression: "Bun.file(p)" },
  { file: "checks/impure/deno.ts", code: 'export const home = () => Deno.env.get("HOME");', what: "Deno", kind: "runtime", expression: 'Deno.env.get("HOME")' },
  {
    file: "checks/impure/global-date.ts",
    code: "export const at = () => globalThis.Date.now();",
    what: "Date.now",
    kind: "clock",
    expression: "globalThis.Date.now()",
  },
  { file: "checks/impure/window-fetch.ts", code: 'export const get = window["fetch"];', what: "fetch", kind: "network", expression: 'window["fetch"]' },
  {
    file: "checks/impure/self-process.ts",
    code: "export const argv = () => self.process.argv;",
    what: "process",
    kind: "process",
    expression: "self.process.argv",
  },
  {
    file: "checks/impure/global-alias.ts",
    code: "const g = globalThis;\nexport const get = g.fetch;",
    what: "globalThis",
    kind: "global",
    expression: "globalThis",
  },
  { file: "checks/impure/eval.ts", code: "export const run = (s: string) => eval(s);", what: "eval", kind: "eval", expression: "eval(s)" },
  {
    file: "checks/impure/function.ts",
    code: "export const compile = (s: string) => new Function(s);",
    what: "new Function",
    kind: "eval",
    expression: "new Function(s)",
  },
  { file: "checks/impure/import-meta.ts", code: "export const here = import.meta.url;", what: "import.meta", kind: "meta", expression: "import.meta" },
  { file: "src/math/stamp.ts", code: "export const stamp = () => Date.now();", what: "Date.now", kind: "clock", expression: "Date.now()" },
];

/** The planted tree: path → source. Imports use explicit .ts extensions, as the project does. */
const PLANTED: Record<string, string> = {
  "tsconfig.json": readFileSync(join(ROOT, "tsconfig.json"), "utf8"),
  "package.json": JSON.stringify({ name: "planted", type: "module", dependencies: { execa: "*", "@noble/hashes": "*" } }),
  "node_modules/execa/package.json": JSON.stringify({ name: "execa", type: "module", exports: { default: "./index.js" } }),
  "node_modules/execa/index.js": "export const execa = () => {};\n",
  "node_modules/@noble/hashes/package.json": JSON.stringify({ name: "@noble/hashes", type: "module", exports: { "./sha2.js": "./sha2.js" } }),
  "node_modules/@noble/hashes/sha2.js": "export const sha256 = () => {};\n",

  // checks-pure, transitive: a check imports a harmless-looking helper that imports node:fs.
  "checks/X.ts": 'import { read } from "./kit/helper.ts";\nexport const x = read;\n',
  "checks/kit/helper.ts": 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
  // checks-pure, direct: a check imports the probe.
  "checks/Y.ts": 'import { p } from "../src/probe/p.ts";\nexport const y = p;\n',
  "src/probe/p.ts": "export const p = 1;\n",
  // checks-pure: execa and a bare core name, from kit.
  "checks/kit/spawn.ts": 'import { execa } from "execa";\nimport { spawn } from "child_process";\nexport const run = [execa, spawn];\n',
  // Clean: a check on pure helpers, node:crypto and @noble/* (none of this may fire).
  "checks/ok.ts": 'import { digest } from "../src/math/m.ts";\nimport { word } from "../src/protocol/ok.ts";\nexport const ok = [digest, word];\n',
  "src/math/m.ts": 'import { createHash } from "node:crypto";\nimport { sha256 } from "@noble/hashes/sha2.js";\nexport const digest = [createHash, sha256];\n',
  "src/protocol/ok.ts": 'import { digest } from "../math/m.ts";\nexport const word = digest;\n',

  // no-folder-cycle without a module cycle: src/a/x → src/b/y → src/a/z.
  "src/a/x.ts": 'import { y } from "../b/y.ts";\nexport const x = y;\n',
  "src/b/y.ts": 'import { z } from "../a/z.ts";\nexport const y = z;\n',
  "src/a/z.ts": "export const z = 1;\n",
  // no-module-cycle without a folder cycle: src/c/m ↔ src/c/n (type-only one way: still a cycle).
  "src/c/m.ts": 'import { n } from "./n.ts";\nexport const m = () => n;\n',
  "src/c/n.ts": 'import type { m } from "./m.ts";\nexport const n: typeof m | null = null;\n',

  // transcript-is-a-record: the record imports a check.
  "src/transcript/t.ts": 'import { z } from "../../checks/z.ts";\nexport const t = z;\n',
  "checks/z.ts": "export const z = 1;\n",
  // report-from-run-report: a renderer reads the registry.
  "src/report/r.ts": 'import { all } from "../../checks/index.ts";\nexport const r = all;\n',
  "checks/index.ts": "export const all: string[] = [];\n",
  // verdict-below-drivers: the verdict imports a renderer.
  "src/verdict/v.ts": 'import { r } from "../report/r.ts";\nexport const v = r;\n',
  // vocabulary-self-contained: the protocol imports the engine.
  "src/protocol/p.ts": 'import { e } from "../engine/e.ts";\nexport const p = e;\n',
  "src/engine/e.ts": "export const e = 1;\n",
  // shipped-not-from-test: shipped code reaching into test/.
  "src/s.ts": 'import { h } from "../test/helpers/h.ts";\nexport const s = h;\n',
  "test/helpers/h.ts": "export const h = 1;\n",
  // no-unresolvable: an import of a file that is not there.
  "src/u.ts": 'import { gone } from "./missing.ts";\nexport const u = gone;\n',

  // The purity rule (IMPURE below): a src/ module that reads the clock, reached only through a check.
  "checks/impure/via-src.ts": 'import { stamp } from "../../src/math/stamp.ts";\nexport const s = stamp;\n',
  // Clean for purity: the same words where they are not the world's (a comment, strings, own objects and
  // members, a bound name, a type, a dated value), a module no check imports, and one a check imports only as a type.
  "checks/clean-words.ts": [
    'import type { Stamp } from "../src/protocol/stamp.ts";',
    "// Date.now() new Date() performance.now() Math.random() process.env fetch() setTimeout() require() import() Bun Deno eval",
    'export const words = ["Date.now()", "process.env.HOME", `globalThis.fetch`, "import.meta.url", "new Function()"];',
    "const clock = { now: () => 0, random: () => 4, process: 1, fetch() {}, setTimeout: 2, performance: 3 };",
    "export const read = [clock.now(), clock.random(), clock.process, clock.fetch(), clock.setTimeout, clock.performance];",
    'export const dated = [new Date(0), new Date("2026-01-01T00:00:00Z"), Date.UTC(2026, 0, 1), Date.parse("2026-01-01")];',
    "export const bound = (process: { env: object }, fetch: () => void, Bun: string) => [process.env, fetch(), Bun];",
    "export function crypto(x: { randomUUID(): string }) { const performance = { now: () => 1 }; return [x.randomUUID(), performance.now()]; }",
    "export const types: typeof Date.now | typeof process | typeof fetch | undefined = undefined as unknown as Stamp as never;",
    "export const math = [Math.floor(1.5), Math.max(1, 2)];",
    "",
  ].join("\n"),
  "src/target/clock.ts": "export const now = () => Date.now();\n",
  "src/protocol/stamp.ts": "export type Stamp = number;\nexport const stampNow = (): Stamp => Date.now();\n",
  ...Object.fromEntries(IMPURE.map((e) => [e.file, `export const planted = 1;\n${e.code}\n`])),
};

interface Expected {
  rule: string;
  from: string;
  to: string;
  /** For a transitive violation: a module the via path must pass through. */
  through?: string;
  /** A cycle is reported once, from any of its members: match it by its members instead. */
  cycle?: true;
  why: string;
}

const EXPECTED: Expected[] = [
  {
    rule: "checks-pure",
    from: "checks/X.ts",
    to: "fs",
    through: "checks/kit/helper.ts",
    why: "a check reaching node:fs through checks/kit/helper.ts (transitive)",
  },
  { rule: "checks-pure", from: "checks/kit/helper.ts", to: "fs", why: "checks/kit importing node:fs" },
  { rule: "checks-pure", from: "checks/Y.ts", to: "src/probe/p.ts", why: "a check importing src/probe/" },
  { rule: "checks-pure", from: "checks/kit/spawn.ts", to: "node_modules/execa/index.js", why: "checks/kit importing execa" },
  { rule: "checks-pure", from: "checks/kit/spawn.ts", to: "child_process", why: "checks/kit importing bare child_process" },
  { rule: "no-folder-cycle", from: "src/a", to: "src/b", why: "the folder cycle src/a → src/b → src/a (no module cycle in it)" },
  { rule: "no-folder-cycle", from: "src/b", to: "src/a", why: "the folder cycle src/b → src/a → src/b (no module cycle in it)" },
  {
    rule: "no-module-cycle",
    from: "src/c/m.ts",
    to: "src/c/n.ts",
    cycle: true,
    why: "the module cycle src/c/m.ts ↔ src/c/n.ts (inside one folder, one way type-only)",
  },
  { rule: "transcript-is-a-record", from: "src/transcript/t.ts", to: "checks/z.ts", why: "src/transcript/ importing checks/" },
  { rule: "vocabulary-self-contained", from: "src/protocol/p.ts", to: "src/engine/e.ts", why: "src/protocol/ importing src/engine/" },
  { rule: "report-from-run-report", from: "src/report/r.ts", to: "checks/index.ts", why: "src/report/ importing the registry checks/index.ts" },
  { rule: "verdict-below-drivers", from: "src/verdict/v.ts", to: "src/report/r.ts", why: "src/verdict/ importing src/report/" },
  { rule: "shipped-not-from-test", from: "src/s.ts", to: "test/helpers/h.ts", why: "src/ importing test material" },
  { rule: "no-unresolvable", from: "src/u.ts", to: "./missing.ts", why: "an import that does not resolve" },
];

const matches = (e: Expected) => (v: IViolation) =>
  v.rule.name === e.rule &&
  (e.cycle ? new Set([v.from, v.to]).size === 2 && [v.from, v.to].every((m) => m === e.from || m === e.to) : v.from === e.from && v.to === e.to);

/** The planted tree, written to a temp dir and cruised once, for the import rules and the purity rule. */
let plantedDir: string | undefined;
let plantedCruise: Promise<{ dir: string; result: ICruiseResult; options: ICruiseOptions }> | undefined;
t.teardown(() => {
  if (plantedDir) rmSync(plantedDir, { recursive: true, force: true });
});
const planted = () =>
  (plantedCruise ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "cgp-architecture-"));
    plantedDir = dir;
    for (const [path, text] of Object.entries(PLANTED)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return { dir, ...(await cruiseWithConfig(dir, ["src", "checks"])) };
  })());

t.test("every rule fires on a planted violation, and only there", async (t) => {
  const { result, options } = await planted();
  const violations = result.summary.violations;

  // Every rule in the config has a planted violation here: a new rule must bring its own.
  t.strictSame([...new Set(EXPECTED.map((e) => e.rule))].sort(), ruleNames(options).sort(), "a planted violation for every rule in .dependency-cruiser.cjs");

  for (const e of EXPECTED) {
    const hit = violations.find(matches(e));
    const found = violations.filter((v) => v.rule.name === e.rule).map(describe);
    const wanted = `${e.rule} fires on ${e.why}: expected ${e.from} → ${e.to}`;
    t.ok(hit, hit ? wanted : `${wanted}; it reported ${found.length ? found.join("; ") : "nothing"}`);
    if (hit && e.through) {
      t.ok(
        hit.via?.some((s) => s.name === e.through),
        `${e.rule} names the path through ${e.through}: ${describe(hit)}`,
      );
    }
  }

  const unexpected = violations.filter((v) => !EXPECTED.some((e) => matches(e)(v))).map(describe);
  t.strictSame(unexpected, [], "no rule fires on the clean planted modules (node:crypto, @noble/*, src/math, src/protocol from checks)");
});

t.test("the purity rule fires on each planted use of the world, and only there", async (t) => {
  const { dir, result } = await planted();
  const files = reachable(result.modules, PURE_ROOTS);
  t.ok(files.includes("src/math/stamp.ts"), "a src/ module a check imports is held");
  t.notOk(files.includes("src/target/clock.ts"), "a module no check imports is not");
  t.notOk(files.includes("src/protocol/stamp.ts"), "nor one a check imports only as a type (it is gone from the compiled code)");

  // Every kind of use has a planted one here: a new kind must bring its own.
  t.strictSame([...new Set(IMPURE.map((e) => e.kind))].sort(), Object.keys(WHY).sort(), "a planted use for every kind in WHY");

  const found = files.flatMap((f) => impurities(f, readFileSync(join(dir, f), "utf8")));
  for (const e of IMPURE) {
    const want: Impurity = { file: e.file, line: 2, col: e.code.indexOf(e.expression) + 1, what: e.what, kind: e.kind, expression: e.expression };
    t.strictSame(
      found.filter((i) => i.file === e.file),
      [want],
      `${e.what} fires once, in ${e.file}:2:${want.col}`,
    );
  }
  const date = found.find((i) => i.file === "checks/impure/date-now.ts");
  t.equal(
    date && describeImpurity(date),
    "checks/impure/date-now.ts:2:25 Date.now (Date.now()): a check reads the clock: its verdict would not replay",
    "a use is listed with file:line:col, what, the expression and why",
  );

  // An ALLOWED entry lets one use through, in its file only; one that matches nothing is stale.
  const allowed = judgeAllowed(found, [
    { file: "checks/impure/eval.ts", what: "eval", why: "planted" },
    { file: "checks/clean-words.ts", what: "eval", why: "planted" },
  ]);
  t.strictSame(
    found.filter((i) => !allowed.violations.includes(i)).map(describeImpurity),
    found.filter((i) => i.file === "checks/impure/eval.ts").map(describeImpurity),
    "an allowed use is let through, and only it",
  );
  t.strictSame(allowed.stale, ["checks/clean-words.ts: eval"], "an allowed use that is not there is stale");

  const unexpected = found.filter((i) => !IMPURE.some((e) => e.file === i.file)).map(describeImpurity);
  t.strictSame(unexpected, [], "nothing fires on the clean words (a comment, strings, own objects, bound names, types, new Date(x))");
});
