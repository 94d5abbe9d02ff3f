// @ts-check
/**
 * Architecture rules over the import graph: the one source of truth, used by
 * test/architecture.test.ts (against the real tree and a planted one) and by
 * hand:
 *
 *   npx depcruise --config .dependency-cruiser.cjs bin src checks misbehave scripts
 *
 * (dependency-cruiser's CLI refuses node < 22; on node 20 run it under bun instead:
 *   npx bun node_modules/.bin/depcruise --config .dependency-cruiser.cjs bin src checks misbehave scripts
 * The programmatic API the test uses runs on node 20.)
 *
 * Paths in rules are module paths relative to the cruise's base directory
 * ("src/probe/session.ts", "node_modules/execa/index.js"); core modules keep
 * the specifier they were imported by ("node:fs", "fs").
 */
const { builtinModules } = require("node:module");

/** The folders the rules govern (the cruise's entry points). */
const PROJECT = ["bin", "src", "checks", "misbehave", "scripts"];

/** Escape a string for use inside a regular expression. @param {string} s */
const re = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Node core modules that reach outside the process: files, sockets, child
 * processes, threads. Matches both spellings ("node:fs" and "fs") and
 * sub-paths ("node:fs/promises").
 */
const IO_CORE = ["fs", "net", "child_process", "http", "https", "http2", "tls", "dgram", "worker_threads"];
const IO_CORE_PATH = `^(node:)?(${IO_CORE.join("|")})(/|$)`;

/**
 * includeOnly also filters dependencies, so it must let through what the rules
 * look at outside the project: core modules (every name node knows, both
 * spellings) and npm packages (not followed, see doNotFollow), plus schema/
 * for the JSON files src/schema imports.
 */
const CORE_PATH = `^(node:)?(${builtinModules.map(re).join("|")})$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "checks-pure",
      severity: "error",
      comment:
        "A check judges a recorded transcript; it must not be able to touch the world. Nothing reachable " +
        "from checks/ (the checks and checks/kit) may import file, network, process or thread modules, " +
        "execa, or the parts of src/ that drive a target (target, probe, engine, cli, report). " +
        "Transitive: a harmless-looking helper that imports node:fs is caught with its via path.",
      from: { path: "^checks/" },
      to: {
        reachable: true,
        path: [IO_CORE_PATH, "(^|/)node_modules/execa/", "^src/(target|probe|engine|cli|report)/"],
      },
    },
    {
      name: "no-folder-cycle",
      severity: "error",
      comment:
        "No cycle between folders. A folder stands for every module beneath it, and depends on the " +
        "folder each of its out-of-folder imports lives in directly (dependency-cruiser's folder scope).",
      scope: "folder",
      from: { path: `^(${PROJECT.join("|")})(/|$)` },
      to: { circular: true },
    },
    {
      name: "no-module-cycle",
      severity: "error",
      comment: "No cycle between modules (type-only imports count: they are knowledge too).",
      from: { path: `^(${PROJECT.join("|")})/` },
      to: { circular: true },
    },
    {
      name: "transcript-is-a-record",
      severity: "error",
      comment:
        "src/transcript/ is the record (types, file format, view): it knows nothing of who produced it " +
        "or who judges it.",
      from: { path: "^src/transcript/" },
      to: { path: "^(checks|src/(probe|target|engine|report|verdict))/" },
    },
    {
      name: "vocabulary-self-contained",
      severity: "error",
      comment:
        "src/protocol/ (the protocol's vocabulary) and src/math/ import only each other, node core " +
        "modules and npm packages (@noble/*): nothing else from the project.",
      from: { path: "^src/(protocol|math)/" },
      to: {
        pathNot: ["^src/(protocol|math)/", "(^|/)node_modules/"],
        dependencyTypesNot: ["core"],
      },
    },
    {
      name: "report-from-run-report",
      severity: "error",
      comment:
        "Renderers take requirement text from the run report, not from the registry in checks/, and " +
        "never talk to a target.",
      from: { path: "^src/report/" },
      to: { path: "^(checks|src/(probe|target))/" },
    },
    {
      name: "verdict-below-drivers",
      severity: "error",
      comment: "src/verdict/ decides; it does not render, parse arguments, run the engine or talk to a target.",
      from: { path: "^src/verdict/" },
      to: { path: "^src/(report|cli|engine|probe|target)/" },
    },
    {
      name: "shipped-not-from-test",
      severity: "error",
      comment:
        "What ships (the binary, the bundle, the scripts that build and release them) never imports test " +
        "material: the reference provider and host live in src/reference/, test/ holds only tests, fakes and data.",
      from: { path: "^(bin|src|checks|misbehave|scripts)/" },
      to: { path: "^test/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment:
        "Every import from the project must resolve. Guards the rules above: an import the cruise " +
        "cannot resolve is an edge no rule can see.",
      from: { path: `^(${PROJECT.join("|")})/` },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    // Relative specifiers that did not resolve keep their written form ("./missing.ts"): let them
    // through too, or no-unresolvable would never see them.
    // test/ is let through so that an import of it from shipped code is an edge shipped-not-from-test sees.
    includeOnly: [`^(${PROJECT.join("|")}|schema|test)/`, "(^|/)node_modules/", CORE_PATH, "^\\.{1,2}/"],
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are kept in the graph and marked (dependencyTypes "type-only").
    tsPreCompilationDeps: "specify",
    // Only the derivations the rules need (cycles, reachability, folders).
    skipAnalysisNotInRules: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      mainFields: ["module", "main"],
    },
  },
};
