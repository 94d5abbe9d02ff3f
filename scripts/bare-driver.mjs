// The bench's yardstick: replays a transcript's sent lines against the same provider
// and reads the replies, nothing else (no parsing, no scoring, no report). Each
// session runs its own provider process, all at once, as the suite runs them.
// usage: node bare-driver.mjs TRANSCRIPT ROOT -- PROVIDER COMMAND...
// (a `--root` in the recorded command is replaced by ROOT, which the provider fills)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const [file, root, dd, ...given] = process.argv.slice(2);
if (dd !== "--" || given.length === 0) throw new Error("usage: bare-driver.mjs TRANSCRIPT ROOT -- PROVIDER...");
const [, ...events] = readFileSync(file, "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const command = given.map((a, i) => (given[i - 1] === "--root" ? root : a));

const sessions = new Map();
for (const e of events) {
  if (e.dir !== "send" && e.dir !== "recv") continue;
  if (!sessions.has(e.session)) sessions.set(e.session, []);
  sessions.get(e.session).push(e);
}

function drive(script) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
    let seen = 0;
    let want = 0;
    let wake = () => {};
    child.stdout.on("data", (c) => {
      for (const b of c) if (b === 0x0a) seen++;
      if (seen >= want) wake();
    });
    child.on("exit", () => {
      wake();
      resolve();
    });
    child.stdin.on("error", () => {});
    (async () => {
      for (let i = 0; i < script.length; i++) {
        if (script[i].dir !== "send") continue;
        // A line of bytes that are not UTF-8 is recorded as hex.
        const e = script[i];
        child.stdin.write(e.line_hex !== undefined ? Buffer.concat([Buffer.from(e.line_hex, "hex"), Buffer.from("\n")]) : `${e.line}\n`);
        let replies = 0;
        for (let j = i + 1; j < script.length && script[j].dir === "recv"; j++) replies++;
        want += replies;
        if (seen < want)
          await new Promise((r) => {
            const t = setTimeout(r, 2000);
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
      }
      child.stdin.end();
      setTimeout(() => child.kill("SIGKILL"), 2000).unref();
    })();
  });
}

await Promise.all([...sessions.values()].map(drive));
