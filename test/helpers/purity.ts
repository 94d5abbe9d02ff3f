/**
 * The purity rule over code: what the import rules (.dependency-cruiser.cjs) cannot see. A module
 * reachable from checks/ may import nothing that touches the world, and test/architecture.test.ts
 * proves it; but a global needs no import. This walk reads each reachable module's syntax tree
 * (comments and strings are not code; `clock.now()` is another object's) and lists every use of a
 * global that reads the clock, draws randomness, reads the process, reaches the network, schedules
 * work, loads or compiles code at run time, or calls the runtime's own API.
 *
 * A use is a global only where no enclosing scope declares the name: a parameter called `process`
 * is the caller's value. Type positions (`typeof Date.now`, `import type`) are not code and are
 * not walked.
 */
import type { IModule } from "dependency-cruiser";
import ts from "typescript";

/** Why each kind of use is forbidden: the words a violation is listed with. */
export const WHY = {
  clock: "a check reads the clock: its verdict would not replay",
  random: "a check draws randomness: its verdict would not replay",
  process: "a check reads the process (environment, arguments, streams, exit): its verdict would depend on where it runs",
  network: "a check reaches the network: it judges a recorded transcript, never a live target",
  timer: "a check schedules work for later: a check scores at once, and a verdict that waits would depend on timing",
  loader: "a check loads code at run time: what it reaches is outside the import graph the architecture rules check",
  runtime: "a check calls the runtime's own API (files, processes, environment): the import rules cannot see it",
  eval: "a check compiles code from a string: what it runs is outside every rule",
  meta: "a check reads where its module was loaded from (import.meta, __dirname; under Bun, import.meta also carries the environment)",
  global: "a check reaches the global object by a path this rule cannot follow: name the global itself, or pass the value in",
} as const;
export type Kind = keyof typeof WHY;

export interface Impurity {
  /** The module's path as the cruise names it (checks/kit/x.ts). */
  file: string;
  line: number;
  col: number;
  /** What was used, in one word or call ("Date.now", "new Date()", "process", "import()"). */
  what: string;
  kind: Kind;
  /** The expression as written (whitespace folded, at most 80 characters). */
  expression: string;
}

/**
 * Uses that the rule allows in a module, each with the reason it is pure. Matched by file and
 * `what`, not by line, so an edit elsewhere in the file keeps it; an entry nothing matches is
 * reported as stale. Empty: nothing reachable from checks/ needs one.
 */
export const ALLOWED: readonly { file: string; what: string; why: string }[] = [];

/** Globals forbidden wherever they are used, by name. */
const NAMES: Readonly<Record<string, Kind>> = {
  performance: "clock",
  process: "process",
  fetch: "network",
  WebSocket: "network",
  XMLHttpRequest: "network",
  EventSource: "network",
  setTimeout: "timer",
  setInterval: "timer",
  setImmediate: "timer",
  queueMicrotask: "timer",
  require: "loader",
  module: "loader",
  Bun: "runtime",
  Deno: "runtime",
  eval: "eval",
  __dirname: "meta",
  __filename: "meta",
};

/** Names of the global object: a property of one is the global of that name. */
const GLOBAL_OBJECTS = new Set(["globalThis", "window", "self", "global"]);

/** Random functions, on the global crypto and in node:crypto or @noble/* (randomBytes, randomUUID, getRandomValues, ...). */
const RANDOM = /^(random|getRandom|pseudoRandom|generateKey|generatePrime)/;
const CRYPTO_MODULE = /^((node:)?crypto|@noble\/.*)$/;

/** Core modules that are a forbidden global by another name (`import { env } from "node:process"`). */
const CORE_MODULES: Readonly<Record<string, Kind>> = {
  process: "process",
  os: "process",
  timers: "timer",
  "timers/promises": "timer",
  perf_hooks: "clock",
  module: "loader",
  vm: "eval",
};

/** A member name the rule cannot read (`globalThis[name]`). */
const COMPUTED = "\0computed";

/** Every name a binding pattern declares. */
function bindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindingNames(e.name, into);
}

/** The names declared directly in a list of statements (var is taken as block-scoped: close enough for a rule that only needs globals). */
function declaredIn(statements: readonly ts.Statement[], into: Set<string>): void {
  for (const s of statements) {
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bindingNames(d.name, into);
    else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) into.add(s.name.text);
    else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name)) into.add(s.name.text);
    else if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) into.add(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) into.add(c.namedBindings.name.text);
      else if (c.namedBindings) for (const e of c.namedBindings.elements) into.add(e.name.text);
    } else if (ts.isImportEqualsDeclaration(s)) into.add(s.name.text);
  }
}

/** The names a scope node declares for the code inside it; undefined when the node is no scope. */
function scopeNames(node: ts.Node): Set<string> | undefined {
  const names = new Set<string>();
  if (ts.isSourceFile(node) || ts.isBlock(node) || ts.isModuleBlock(node)) declaredIn(node.statements, names);
  else if (ts.isCaseBlock(node)) for (const c of node.clauses) declaredIn(c.statements, names);
  else if (ts.isFunctionLike(node)) {
    for (const p of node.parameters) bindingNames(p.name, names);
    if ((ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.name) names.add(node.name.text);
  } else if (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
    const init = node.initializer;
    if (init && ts.isVariableDeclarationList(init)) for (const d of init.declarations) bindingNames(d.name, names);
  } else if (ts.isCatchClause(node)) {
    if (node.variableDeclaration) bindingNames(node.variableDeclaration.name, names);
  } else if (ts.isClassExpression(node)) {
    if (node.name) names.add(node.name.text);
  } else return undefined;
  return names;
}

/** Whether an identifier is read as a value here (not a declaration's name, a member's name, a label or an import's name). */
function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p)) return p.expression === id;
  if (ts.isShorthandPropertyAssignment(p)) return true;
  if (ts.isBindingElement(p)) return p.name !== id && p.propertyName !== id;
  if (ts.isExportSpecifier(p)) return !p.parent.parent.moduleSpecifier && (p.propertyName ?? p.name) === id;
  if (ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isImportSpecifier(p) || ts.isImportEqualsDeclaration(p) || ts.isMetaProperty(p)) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return p.label !== id;
  return !(DECLARES.has(p.kind) && (p as ts.Node & { name?: ts.Node }).name === id);
}

/** Nodes whose `name` is a name being declared (of a binding, a member, a type), never a value read. */
const DECLARES = new Set([
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.EnumMember,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.TypeParameter,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** The static text of the key when `node` is the object of a member access: `.now`, `["now"]`; COMPUTED for any other key. */
function memberOf(node: ts.Node): string | undefined {
  const p = node.parent;
  if (ts.isPropertyAccessExpression(p) && p.expression === node) return p.name.text;
  if (ts.isElementAccessExpression(p) && p.expression === node) {
    const a = p.argumentExpression;
    return ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a) ? a.text : COMPUTED;
  }
  return undefined;
}

/** Every forbidden use in one module's source text. */
export function impurities(file: string, text: string): Impurity[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: Impurity[] = [];
  const scopes = new Map<ts.Node, Set<string> | undefined>();
  /** Namespace and default imports of node:crypto and @noble/*: `c.randomBytes` is a random function. */
  const cryptoNamespaces = new Set<string>();

  const report = (node: ts.Node, what: string, kind: Kind): void => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    const written = node.getText(sf).replace(/\s+/g, " ");
    found.push({ file, line: line + 1, col: character + 1, what, kind, expression: written.length > 80 ? `${written.slice(0, 79)}…` : written });
  };
  const isGlobal = (id: ts.Identifier): boolean => {
    for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
      if (!scopes.has(n)) scopes.set(n, scopeNames(n));
      if (scopes.get(n)?.has(id.text)) return false;
    }
    return true;
  };

  /** A global read: follow its member chain (globalThis.Date.now), drop the global object, and judge what is left. */
  const judge = (id: ts.Identifier): void => {
    const names = [id.text];
    let outer: ts.Node = id;
    for (let key = memberOf(outer); key !== undefined && names.at(-1) !== COMPUTED; key = memberOf(outer)) {
      names.push(key);
      outer = outer.parent;
    }
    const viaGlobal = GLOBAL_OBJECTS.has(names[0]!);
    while (names.length > 0 && GLOBAL_OBJECTS.has(names[0]!)) names.shift();
    const callee = (ts.isCallExpression(outer.parent) || ts.isNewExpression(outer.parent)) && outer.parent.expression === outer ? outer.parent : undefined;
    const at = callee ?? outer;
    const [head, member] = names;
    if (head === undefined || head === COMPUTED) {
      if (viaGlobal) report(outer, names.length ? `${id.text}[…]` : id.text, "global");
      return;
    }
    if (head === "Date" && member === "now") report(at, "Date.now", "clock");
    else if (head === "Date" && member === undefined && callee && ts.isNewExpression(callee) && !callee.arguments?.length)
      report(callee, "new Date()", "clock");
    else if (head === "Date" && member === undefined && callee && ts.isCallExpression(callee)) report(callee, "Date()", "clock");
    else if (head === "Math" && member === "random") report(at, "Math.random", "random");
    else if (head === "crypto" && member !== undefined && RANDOM.test(member)) report(at, `crypto.${member}`, "random");
    else if (head === "Function" && member === undefined && callee) report(callee, ts.isNewExpression(callee) ? "new Function" : "Function()", "eval");
    else if (Object.hasOwn(NAMES, head)) report(at, head, NAMES[head]!);
  };

  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword) return;
    if (ts.isImportDeclaration(node)) return importOf(node);
    if (ts.isExportDeclaration(node) && node.isTypeOnly) return;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) report(node, "import()", "loader");
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) report(node, "import.meta", "meta");
    else if (ts.isIdentifier(node) && isReference(node)) {
      if (cryptoNamespaces.has(node.text) && ts.isPropertyAccessExpression(node.parent) && RANDOM.test(node.parent.name.text) && !isGlobal(node))
        report(node.parent, `${node.text}.${node.parent.name.text}`, "random");
      else if (isGlobal(node)) judge(node);
    }
    ts.forEachChild(node, visit);
  };

  /** An import: of a core module that is a forbidden global by another name, or of a random function. */
  const importOf = (node: ts.ImportDeclaration): void => {
    const clause = node.importClause;
    if (!ts.isStringLiteral(node.moduleSpecifier) || !clause || clause.isTypeOnly) return;
    const from = node.moduleSpecifier.text;
    const core = from.replace(/^node:/, "");
    if (Object.hasOwn(CORE_MODULES, core)) return report(node, `import "${from}"`, CORE_MODULES[core]!);
    if (!CRYPTO_MODULE.test(from)) return;
    if (clause.name) cryptoNamespaces.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) cryptoNamespaces.add(bindings.name.text);
    else if (bindings)
      for (const e of bindings.elements) {
        const name = (e.propertyName ?? e.name).text;
        if (!e.isTypeOnly && RANDOM.test(name)) report(e, `${name} from "${from}"`, "random");
      }
  };

  visit(sf);
  return found.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Files the rule reads: code, not the JSON a module imports. */
const CODE = /\.[cm]?[jt]s$/;

/**
 * Every project module reachable from those whose path matches `from`, by the edges that stay in
 * the compiled code (an `import type` is gone after compiling: what it names never runs), from a
 * dependency-cruiser result: the same graph the import rules are checked on.
 */
export function reachable(modules: readonly IModule[], from: RegExp): string[] {
  const bySource = new Map(modules.map((m) => [m.source, m]));
  const seen = new Set<string>();
  const stack = modules.filter((m) => from.test(m.source)).map((m) => m.source);
  while (stack.length > 0) {
    const source = stack.pop()!;
    if (seen.has(source)) continue;
    seen.add(source);
    for (const d of bySource.get(source)?.dependencies ?? []) {
      if (d.coreModule || d.couldNotResolve || /(^|\/)node_modules\//.test(d.resolved) || d.dependencyTypes.includes("pre-compilation-only")) continue;
      stack.push(d.resolved);
    }
  }
  return [...seen].filter((s) => CODE.test(s)).sort();
}

/** One line per use: where, what, as written, and why it is forbidden. */
export const describeImpurity = (i: Impurity): string => `${i.file}:${i.line}:${i.col} ${i.what} (${i.expression}): ${WHY[i.kind]}`;

/** The uses ALLOWED does not cover, and the ALLOWED entries that covered nothing. */
export function judgeAllowed(found: readonly Impurity[], allowed: typeof ALLOWED = ALLOWED): { violations: Impurity[]; stale: string[] } {
  const allows = (i: Impurity) => allowed.some((a) => a.file === i.file && a.what === i.what);
  const stale = allowed.filter((a) => !found.some((i) => a.file === i.file && a.what === i.what)).map((a) => `${a.file}: ${a.what}`);
  return { violations: found.filter((i) => !allows(i)), stale };
}
