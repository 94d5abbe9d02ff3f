// A small CGP host written for the tests, sharing nothing with the bundled
// reference host, with two planted defects:
//   1. it sends an id on every query, whether or not the provider declared
//      capabilities.correlation (breaks H4's host rule);
//   2. it gates only on egress_scopes and ignores data_flow.egress, so it
//      queries an egress provider nobody consented to (breaks C2).
// Everything else it does as the spec asks: it refuses a foreign family,
// refuses unconsented off-machine scopes naming them, never sends an embedding
// or representation preferences, never verifies, reads under a deadline, and
// treats every error code alike. Usage: node host-two-defects.mjs <provider command...>
import { spawn } from "node:child_process";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: host-two-defects.mjs <provider command...>");
  process.exit(2);
}
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
child.on("error", (e) => fail(`cannot start the provider: ${e.message}`));

let buffered = "";
const waiting = [];
const lines = [];
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) !== -1) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (waiting.length > 0) waiting.shift()(line);
    else lines.push(line);
  }
});
child.stdout.on("end", () => {
  while (waiting.length > 0) waiting.shift()(null);
});

function fail(why) {
  console.error(`fake-host: ${why}`);
  child.kill("SIGKILL");
  process.exit(1);
}

function send(env) {
  child.stdin.write(`${JSON.stringify(env)}\n`);
}

/** The next envelope from the provider, within 1.5 s; unknown notifications are skipped. */
async function next() {
  for (;;) {
    const line =
      lines.length > 0
        ? lines.shift()
        : await new Promise((resolve) => {
            const timer = setTimeout(() => resolve(undefined), 1500);
            waiting.push((l) => {
              clearTimeout(timer);
              resolve(l);
            });
          });
    if (line === undefined) fail("timeout: the provider did not answer within 1500 ms");
    if (line === null) fail("provider_crashed: its output ended before it answered");
    let env;
    try {
      env = JSON.parse(line);
    } catch {
      fail("provider_crashed: it wrote a line that is not JSON");
    }
    const known = ["handshake_ack", "frames", "verified", "error"];
    if (known.includes(env.type) || env.id !== undefined) return env;
  }
}

send({ type: "handshake", protocol_version: "contextgraph/1.0" });
const ack = await next();
if (ack.type === "error") fail(`provider refused the handshake: ${ack.code ?? "internal"}: ${ack.message}`);
const major = /^contextgraph\/(\d+)\./.exec(String(ack.protocol_version))?.[1];
if (major !== "1") fail(`incompatible_version: the provider speaks ${ack.protocol_version}`);

const flow = ack.provider?.data_flow ?? {};
const offMachine = (flow.egress_scopes ?? []).filter((s) => s !== "local-only");
if (offMachine.length > 0) fail(`consent_required: no consent receipt for scopes ${offMachine.join(", ")}`);
// Defect 2: data_flow.egress is never looked at.

// Defect 1: an id, correlation or not.
send({ type: "query", id: "fake-1", query: { goal: "what does the retry policy do?", kinds: [], anchors: [], max_frames: 4, max_tokens: 2000 } });
const answer = await next();
if (answer.type === "error") fail(`provider error ${answer.code ?? "(no code)"}, handled as internal: ${answer.message}`);
for (const f of answer.result?.frames ?? []) console.log(`${f.kind}\t${f.token_cost}\t${f.title}`);

send({ type: "shutdown" });
child.stdin.end();
const timer = setTimeout(() => child.kill("SIGKILL"), 1500);
child.on("exit", () => {
  clearTimeout(timer);
  process.exit(0);
});
