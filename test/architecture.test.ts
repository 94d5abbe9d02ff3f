/**
 * Architecture rules over the import graph, kept in .dependency-cruiser.cjs (the one source: the
 * same file drives `npx depcruise --config .dependency-cruiser.cjs bin src checks misbehave fixtures scripts`).
 *
 * 1. The real tree breaks none of them; every violation is listed (rule, from → to, the via path
 *    of a transitive one, the cycle of a circular one) so the message says what to move.
 * 2. Every rule can fail: a tree with one planted violation per rule, written to a temp dir at test
 *    time, makes each rule fire, and nothing else fire (clean neighbours are planted too).
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

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const ENTRIES = ["bin", "src", "checks", "misbehave", "fixtures", "scripts"];

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

t.test("the real tree keeps the architecture rules", async (t) => {
  const started = performance.now();
  const { result, options } = await cruiseWithConfig(ROOT, ENTRIES);
  const ms = Math.round(performance.now() - started);

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
  // no-unresolvable: an import of a file that is not there.
  "src/u.ts": 'import { gone } from "./missing.ts";\nexport const u = gone;\n',
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
  { rule: "no-unresolvable", from: "src/u.ts", to: "./missing.ts", why: "an import that does not resolve" },
];

const matches = (e: Expected) => (v: IViolation) =>
  v.rule.name === e.rule &&
  (e.cycle ? new Set([v.from, v.to]).size === 2 && [v.from, v.to].every((m) => m === e.from || m === e.to) : v.from === e.from && v.to === e.to);

t.test("every rule fires on a planted violation, and only there", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cgp-architecture-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }

  const { result, options } = await cruiseWithConfig(dir, ["src", "checks"]);
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
