// Saves the verdicts of the bundled reference provider, of every misbehave mode and honest variant, and of the reference host with
// every host mode, as cgp-conform's --json reports scrubbed of times, ports and temp paths, one file per case:
// run it before and after a change that must not change behaviour, then diff the two directories.
// With --peers FILE it also runs `stdio` against providers no one here wrote (FILE: a JSON list of
// {"name", "cwd", "env", "args" (cgp-conform's own), "argv"}, e.g. the protocol's SDK example providers built as ../shared/peers describes).
//
//   node scripts/verdict-snapshot.mjs OUTDIR [BINARY] [--peers FILE [--peers-only]]      (BINARY: default dist/cgp-conform)
//   diff -r OUTDIR-before OUTDIR-after
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { availableParallelism } from "node:os";

const argv = process.argv.slice(2);
const peersAt = argv.indexOf("--peers");
const peersFile = peersAt >= 0 ? argv.splice(peersAt, 2)[1] : undefined;
const onlyAt = argv.indexOf("--peers-only");
const peersOnly = onlyAt >= 0 && argv.splice(onlyAt, 1).length > 0;
const [out, given = "dist/cgp-conform"] = argv;
// Absolute: a peer runs with a working directory of its own.
const binary = resolve(given);
if (!out) {
  process.stderr.write("usage: node scripts/verdict-snapshot.mjs OUTDIR [BINARY]\n");
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const run = (args, where = {}) =>
  new Promise((resolve) => {
    const env = { ...process.env, ...where.env, NO_COLOR: "1" };
    execFile(binary, args, { maxBuffer: 256 << 20, timeout: 600_000, env, cwd: where.cwd }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });

/** What must not change: each check's status and evidence, with the run's clock, ports and temp paths blanked. */
function scrub(text) {
  const report = JSON.parse(text);
  const keep = { conformant: report.conformant, could_not_run: report.could_not_run, reason: report.could_not_run_reason, results: report.results };
  return (
    JSON.stringify(keep, (k, v) => (k === "time_ms" || k === "duration_ms" || k === "started_at" ? undefined : v), 2)
      .replace(/\/tmp\/[A-Za-z0-9._/-]+/g, "<tmp>")
      .replace(/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, "$1:<port>")
      .replace(/\b\d+ ms\b/g, "<n> ms") + "\n"
  );
}

/** Every mode the binary knows, as it names them when asked for one it does not. */
async function modesOf(command, ...rest) {
  return namesOf([command, "--misbehave", "cgp-conform:none", ...rest], "modes");
}
/** The names a binary lists when asked for one it does not know (`the modes are: …`, `the variants are: …`). */
async function namesOf(args, what) {
  const said = (await run(args)).stderr;
  const m = new RegExp(`the ${what} are: ([^\\n]+)`).exec(said);
  if (!m) throw new Error(`no list of ${what} in: ${said.slice(0, 300)}`);
  return m[1]
    .split(", ")
    .map((s) => s.trim())
    .filter(Boolean);
}
const modes = await modesOf("reference");
const hostModes = await modesOf("reference-host", "--", "true");
// The honest shapes: the readings a change makes bind first on honest providers. Two need consent to egress.
const variants = await namesOf(["reference", "--variant", "cgp-conform:none"], "variants");
const consent = (v) => (v === "egress" || v === "vendor-names" ? ["--consent", "all"] : []);

const hostArgs = (mode, transport) => [
  "host",
  "--json",
  "--timeout",
  "20000",
  "--fault-timeout",
  "8000",
  "--transport",
  transport,
  "--",
  binary,
  "reference-host",
  "--timeout",
  "3000",
  ...(mode ? ["--misbehave", mode] : []),
  "--context",
  "{context}",
  "--usage",
  "{usage}",
  ...(transport === "stdio" ? ["--", "{provider}", "--and", "--", "{provider2}", "--and", "--", "{provider3}"] : ["--url", "{url}", "{url2}", "{url3}"]),
];

const peers = peersFile ? JSON.parse(readFileSync(peersFile, "utf8")) : [];
const peerCases = peers.map((p) => [`peer-${p.name}`, ["stdio", "--json", ...(p.args ?? []), "--", ...p.argv], { cwd: p.cwd, env: p.env }]);
const cases = peersOnly
  ? peerCases
  : [
      ...peerCases,
      ["provider-honest", ["reference", "--json"]],
      ...modes.map((m) => [`provider-${m}`, ["reference", "--json", "--misbehave", m]]),
      ...variants.map((v) => [`variant-${v}`, ["reference", "--json", "--variant", v, ...consent(v)]]),
      ...["stdio", "http"].flatMap((tr) => [[`host-${tr}-honest`, hostArgs(undefined, tr)], ...hostModes.map((m) => [`host-${tr}-${m}`, hostArgs(m, tr)])]),
    ];

let next = 0;
let failed = 0;
const started = Date.now();
async function worker() {
  while (next < cases.length) {
    const [name, args, where] = cases[next++];
    const r = await run(args, where);
    try {
      writeFileSync(join(out, `${name}.json`), scrub(r.stdout));
    } catch (e) {
      failed++;
      writeFileSync(join(out, `${name}.json`), `unreadable report (exit ${r.code}): ${String(e.message)}\n${r.stderr.slice(-2000)}\n`);
    }
  }
}
await Promise.all(Array.from({ length: Math.min(4, availableParallelism()) }, worker));
process.stdout.write(`${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(0)} s → ${out}${failed ? `; ${failed} unreadable` : ""}\n`);
