// The reference provider (the command given as arguments), except that a line
// that is not a JSON envelope gets error code "internal" instead of
// "bad_request": alive and answering, so R1 only warns (its SHOULD).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
createInterface({ input: child.stdout }).on("line", (line) => {
  const out = line.includes('"message":"not a JSON envelope') ? line.replace('"code":"bad_request"', '"code":"internal"') : line;
  process.stdout.write(out + "\n");
});
child.on("exit", (code) => process.exit(code ?? 1));
