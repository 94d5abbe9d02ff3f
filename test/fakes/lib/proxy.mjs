// A provider in front of another (the command given as arguments): each line the host sends passes
// `inbound` first (return the line to forward, or throw to die as a provider does on a bug), each line
// the provider writes passes `outbound` (return the line to write, or undefined to hold it back). The defects of real providers, planted in an honest one.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export function proxy({ inbound = (l) => l, outbound = (l) => l, argv = process.argv.slice(2) } = {}) {
  const [cmd, ...args] = argv;
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.on("error", () => {});
  createInterface({ input: process.stdin }).on("line", (line) => {
    let out;
    try {
      out = inbound(line);
    } catch (e) {
      process.stderr.write(`Traceback (most recent call last):\n  File "provider.py", line 93, in handle\n${e.message}\n`);
      child.kill("SIGKILL");
      process.exit(1);
    }
    child.stdin.write(out + "\n");
  });
  process.stdin.on("end", () => child.stdin.end());
  // `outbound` may return undefined to hold a line back (and write it later with `emit`), or drop it.
  createInterface({ input: child.stdout }).on("line", (line) => {
    const out = outbound(line);
    if (out !== undefined) emit(out);
  });
  child.on("exit", (code) => process.exit(code ?? 1));
}

/** Write one line to the host. */
export function emit(line) {
  process.stdout.write(`${line}\n`);
}

/** The line as an object, or undefined when it is not JSON. */
export function parsed(line) {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
