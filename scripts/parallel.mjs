// Run independent commands at once and fail if any fails, for `npm test`:
//   node scripts/parallel.mjs "npm run typecheck" "npm run format:check" "tap build"
// Each command's output is kept and shown only if it failed (or with
// CGP_VERBOSE=1); otherwise one line says it passed and how long it took.
// With --show first, every command's output is shown, passed or not: for
// commands whose output is already short (failures and counts), one after
// another in the order given, never interleaved.
// Every command is waited for, so none is left running when this exits.
import { spawn } from "node:child_process";

const show = process.argv[2] === "--show";
const commands = process.argv.slice(show ? 3 : 2);
if (commands.length === 0) {
  console.error("usage: node scripts/parallel.mjs COMMAND...");
  process.exit(2);
}
const verbose = show || process.env.CGP_VERBOSE === "1";
/** What one command may print before its output is cut: a failing typecheck is read from its head. */
const KEEP_BYTES = 1024 * 1024;

function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    let kept = 0;
    const keep = (c) => {
      if (kept < KEEP_BYTES) chunks.push(c.subarray(0, KEEP_BYTES - kept));
      kept += c.length;
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const done = (code, error) => {
      const output = Buffer.concat(chunks).toString("utf8") + (kept > KEEP_BYTES ? `\n[${kept - KEEP_BYTES} more bytes not kept]\n` : "") + (error ?? "");
      resolve({ command, code, output, seconds: ((performance.now() - started) / 1000).toFixed(1) });
    };
    child.on("error", (e) => done(127, `${e.message}\n`));
    child.on("close", (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

const results = await Promise.all(commands.map(run));
for (const r of results) {
  if (r.code === 0 && !verbose) console.log(`ok ${r.command} (${r.seconds} s)`);
  else {
    console.log(`${r.code === 0 ? "ok" : `FAILED (exit ${r.code})`} ${r.command} (${r.seconds} s):`);
    process.stdout.write(r.output.endsWith("\n") || r.output === "" ? r.output : `${r.output}\n`);
  }
}
// exitCode, not exit(): stdout may be a pipe whose reader is behind (tee), and exit() drops what is still queued.
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
