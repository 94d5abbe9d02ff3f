/**
 * The size rule (test/helpers/size.ts): no hand-written module under src/, checks/, misbehave/ or
 * bin/ over FILE_LIMIT lines, and no function in src/ or checks/ over FUNCTION_LIMIT lines.
 *
 * 1. The real tree keeps it, but for the files in ALLOWED; every offence is listed (file, the
 *    function by name or line, its length) so the message says what to split, and an ALLOWED
 *    entry that keeps both limits fails, so the list is emptied as the files are split.
 * 2. Each limit can fail: a tree with planted offences (and clean neighbours at exactly the
 *    limit), written to a temp dir at test time and read by the same walk, makes each fire, and
 *    nothing else fire.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { ALLOWED, describeFile, describeFunction, FILE_LIMIT, FUNCTION_LIMIT, functionSpans, judgeSizes, treeFiles } from "./helpers/size.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

t.test("the real tree keeps the size limits", async (t) => {
  const files = treeFiles(ROOT);
  // A walk that read nothing would pass vacuously: it reads every folder, and the functions of src/ and checks/.
  for (const folder of ["src/", "checks/", "misbehave/", "bin/"])
    t.ok(
      files.some((f) => f.file.startsWith(folder)),
      `the rule reads ${folder}`,
    );
  t.ok(
    files.some((f) => f.file === "src/protocol/probes.ts" && f.functions),
    "the functions of src/ are held",
  );
  t.notOk(
    files.some((f) => f.file.includes(".generated.")),
    "generated files are not read",
  );

  const { files: long, functions, stale } = judgeSizes(files);
  t.comment(`read ${files.length} modules; ${ALLOWED.length} allowed${ALLOWED.length ? `: ${ALLOWED.map((a) => a.file).join(", ")}` : ""}`);
  if (long.length === 0) t.pass(`no hand-written module is over ${FILE_LIMIT} lines`);
  else t.fail(`${long.length} module(s) over ${FILE_LIMIT} lines, listed under 'files': split each by what it owns`, { files: long.map(describeFile) });
  if (functions.length === 0) t.pass(`no function in src/ or checks/ is over ${FUNCTION_LIMIT} lines`);
  else
    t.fail(`${functions.length} function(s) over ${FUNCTION_LIMIT} lines, listed under 'functions': split each into named steps`, {
      functions: functions.map(describeFunction),
    });
  t.strictSame(stale, [], "every allowed file is still over a limit");
});

/** `n` lines of filler statements, each its own line. */
const filler = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
/** A module of exactly `n` lines (the last ending in a newline). */
const moduleOf = (n: number): string => `${Array.from({ length: n }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`;
/** One function of each kind, each spanning `n` lines from its first token to its last (the method from line 2, the others from line 1). */
const functionsOf = (n: number): Record<string, string> => ({
  declaration: `export function declared() {\n${filler(n - 2)}\n}\n`,
  method: `export class Holder {\n  method() {\n${filler(n - 2)}\n  }\n}\n`,
  arrow: `export const arrow = () => {\n${filler(n - 2)}\n};\n`,
  expression: `export const list = [function () {\n${filler(n - 2)}\n}];\n`,
});
/** The planted functions of `n` lines, one file per kind, in `folder` with its names prefixed by `prefix`. */
const plantFunctions = (folder: string, prefix: string, n: number): Record<string, string> =>
  Object.fromEntries(Object.entries(functionsOf(n)).map(([kind, text]) => [`${folder}/${prefix}${kind}.ts`, text]));

/** The planted tree: path → source. */
const PLANTED: Record<string, string> = {
  // The file limit, in each folder it holds; at exactly the limit it does not fire.
  "src/long.ts": moduleOf(FILE_LIMIT + 1),
  "checks/long.ts": moduleOf(FILE_LIMIT + 1),
  "misbehave/long.ts": moduleOf(FILE_LIMIT + 1),
  "bin/long.ts": moduleOf(FILE_LIMIT + 1),
  "src/at-limit.ts": moduleOf(FILE_LIMIT),
  // Not read: a generated file, and the folders the rule does not hold.
  "src/x.generated.ts": moduleOf(FILE_LIMIT * 2),
  "scripts/long.ts": moduleOf(FILE_LIMIT + 1),
  "test/long.ts": moduleOf(FILE_LIMIT + 1),
  // The function limit, for each kind of function, in src/ and checks/; at exactly the limit it does not fire.
  ...plantFunctions("src", "fn-", FUNCTION_LIMIT + 1),
  ...plantFunctions("checks", "fn-", FUNCTION_LIMIT + 1),
  ...plantFunctions("src", "at-limit-", FUNCTION_LIMIT),
  // misbehave/ and bin/ are held to the file limit only.
  ...plantFunctions("misbehave", "fn-", FUNCTION_LIMIT + 1),
  ...plantFunctions("bin", "fn-", FUNCTION_LIMIT + 1),
  // The allow-list: an allowed file over a limit is let through; one that keeps both is stale.
  "src/allowed-long.ts": moduleOf(FILE_LIMIT + 1),
  "src/allowed-ok.ts": moduleOf(1),
};

const PLANTED_ALLOWED = [
  { file: "src/allowed-long.ts", why: "planted" },
  { file: "src/allowed-ok.ts", why: "planted" },
  { file: "src/allowed-gone.ts", why: "planted" },
];

let plantedDir: string | undefined;
t.teardown(() => {
  if (plantedDir) rmSync(plantedDir, { recursive: true, force: true });
});

t.test("each size limit fires on a planted offence, and only there", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cgp-size-"));
  plantedDir = dir;
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const found = judgeSizes(treeFiles(dir), PLANTED_ALLOWED);
  const over = FILE_LIMIT + 1;
  t.strictSame(
    found.files.map(describeFile),
    ["bin", "checks", "misbehave", "src"].map((f) => `${f}/long.ts is ${over} lines (limit ${FILE_LIMIT})`),
    `the file limit fires on a module of ${over} lines in each folder, not at ${FILE_LIMIT}, not on a generated file, scripts/ or test/, not on an allowed file`,
  );

  const fn = FUNCTION_LIMIT + 1;
  const expected = (folder: string) => [
    `${folder}/fn-arrow.ts: function arrow (line 1) spans ${fn} lines (limit ${FUNCTION_LIMIT})`,
    `${folder}/fn-declaration.ts: function declared (line 1) spans ${fn} lines (limit ${FUNCTION_LIMIT})`,
    `${folder}/fn-expression.ts: function at line 1 spans ${fn} lines (limit ${FUNCTION_LIMIT})`,
    `${folder}/fn-method.ts: function method (line 2) spans ${fn} lines (limit ${FUNCTION_LIMIT})`,
  ];
  t.strictSame(
    found.functions.map(describeFunction),
    [...expected("checks"), ...expected("src")],
    `the function limit fires on a declaration, a method, an arrow and a function expression of ${fn} lines, in src/ and checks/, not at ${FUNCTION_LIMIT}, not in misbehave/ or bin/`,
  );
  t.strictSame(
    found.stale,
    ["src/allowed-ok.ts keeps both limits: remove it from the allow-list", "src/allowed-gone.ts is not there: remove it from the allow-list"],
    "an allowed file within the limits, or no longer there, is stale: remove it from the allow-list",
  );
  t.strictSame(
    judgeSizes(treeFiles(dir), []).files.map((f) => f.file),
    ["bin/long.ts", "checks/long.ts", "misbehave/long.ts", "src/allowed-long.ts", "src/long.ts"],
    "without the allow-list, the allowed file fires too",
  );
});

t.test("a function is measured from its first token to its last, its comment not counted", async (t) => {
  const text = "/** A comment\n * of three lines. */\nexport function f(): number {\n  const g = () =>\n    1;\n  return g();\n}\n";
  t.strictSame(
    functionSpans("src/f.ts", text).map(({ name, line, lines }) => ({ name, line, lines })),
    [
      { name: "f", line: 3, lines: 5 },
      { name: "g", line: 4, lines: 2 },
    ],
  );
});
