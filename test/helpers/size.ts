/**
 * The size rule over code: a hand-written module stays short enough to read at one sitting, and a
 * function short enough to hold in one's head. test/size.test.ts proves the real tree keeps it and
 * that each limit can fail.
 *
 * A file's length is its line count (as `wc -l` counts, so a final newline is no extra line). A
 * function's length is the lines from its first token to its last, its own comments not counted
 * before it; a function inside a function is measured on its own, and also counts in its
 * parent's length. Generated files (*.generated.*) are written by scripts, never by hand, and are
 * not read.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** The folders whose modules the file limit holds. */
export const FILE_FOLDERS = ["src", "checks", "misbehave", "bin"] as const;
/** The folders whose functions the function limit holds. */
export const FUNCTION_FOLDERS = ["src", "checks"] as const;

/** The longest a hand-written module may be, in lines. */
export const FILE_LIMIT = 400;
/** The longest a function may be, in lines. */
export const FUNCTION_LIMIT = 120;

/** Files the rule reads: hand-written TypeScript. */
export const isHandWritten = (file: string): boolean => /\.ts$/.test(file) && !/\.generated\./.test(file);

/** Lines in a text, as `wc -l` counts them (plus a last line with no newline). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

export interface LongFile {
  file: string;
  lines: number;
}

export interface LongFunction {
  file: string;
  /** The function's name, or `line N` for one that has none. */
  name: string;
  /** The line it starts on. */
  line: number;
  lines: number;
}

/** What a function is called: its own name, or the name of what it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string | undefined {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.initializer === node) return p.name.getText(sf);
  if (ts.isBinaryExpression(p) && p.right === node && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText(sf);
  return undefined;
}

/** Whether a node is a function with a body: a declaration, method, accessor, constructor, arrow or function expression. */
function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined
  );
}

/** Every function in one module's source text, with where it starts and how many lines it spans. */
export function functionSpans(file: string, text: string): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      found.push({ file, name: nameOf(node, sf) ?? `line ${first}`, line: first, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The functions in one module's source text longer than `limit` lines. */
export const longFunctions = (file: string, text: string, limit = FUNCTION_LIMIT): LongFunction[] => functionSpans(file, text).filter((f) => f.lines > limit);

/** One line per long file: where, how long, and the limit. */
export const describeFile = (f: LongFile): string => `${f.file} is ${f.lines} lines (limit ${FILE_LIMIT})`;

/** One line per long function: where, which, how long, and the limit. */
export const describeFunction = (f: LongFunction): string =>
  `${f.file}: function ${f.name === `line ${f.line}` ? `at line ${f.line}` : `${f.name} (line ${f.line})`} spans ${f.lines} lines (limit ${FUNCTION_LIMIT})`;

/**
 * Files the rule lets through for now, each with the reason: `{ file: "src/x.ts", why: "..." }`.
 * A file is allowed whole (its length and every function in it); an allowed file that keeps both
 * limits, or is no longer there, is stale and fails the test, so the list shrinks as the files
 * are split. Empty: every hand-written module keeps both limits.
 */
export const ALLOWED: readonly { file: string; why: string }[] = [];

/** Every hand-written module of the folders under `root`, read, with whether its functions are held too. */
export function treeFiles(root: string): { file: string; text: string; functions: boolean }[] {
  const files: { file: string; text: string; functions: boolean }[] = [];
  for (const folder of FILE_FOLDERS) {
    const names = readdirSync(join(root, folder), { recursive: true, encoding: "utf8" });
    for (const name of names.map((n) => n.split("\\").join("/")).sort()) {
      const file = `${folder}/${name}`;
      if (!isHandWritten(file)) continue;
      files.push({ file, text: readFileSync(join(root, file), "utf8"), functions: (FUNCTION_FOLDERS as readonly string[]).includes(folder) });
    }
  }
  return files;
}

/** What the rule found across a tree, less what ALLOWED lets through, and the ALLOWED entries that let nothing through. */
export function judgeSizes(
  files: readonly { file: string; text: string; functions: boolean }[],
  allowed: typeof ALLOWED = ALLOWED,
): { files: LongFile[]; functions: LongFunction[]; stale: string[] } {
  const longFiles: LongFile[] = [];
  const longFns: LongFunction[] = [];
  for (const { file, text, functions } of files) {
    const lines = lineCount(text);
    if (lines > FILE_LIMIT) longFiles.push({ file, lines });
    if (functions) longFns.push(...longFunctions(file, text));
  }
  const offends = (file: string) => longFiles.some((f) => f.file === file) || longFns.some((f) => f.file === file);
  const isAllowed = (file: string) => allowed.some((a) => a.file === file);
  const byPlace = (a: { file: string; line?: number }, b: { file: string; line?: number }) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0);
  return {
    files: longFiles.filter((f) => !isAllowed(f.file)).sort(byPlace),
    functions: longFns.filter((f) => !isAllowed(f.file)).sort(byPlace),
    stale: allowed
      .filter((a) => !offends(a.file))
      .map((a) =>
        files.some((f) => f.file === a.file)
          ? `${a.file} keeps both limits: remove it from the allow-list`
          : `${a.file} is not there: remove it from the allow-list`,
      ),
  };
}
