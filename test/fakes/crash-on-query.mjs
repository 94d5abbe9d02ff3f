// Answers the handshake, then on its first query writes a Python-style traceback to stderr and exits 1,
// as a provider with a bug in its query handler does.
import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (l) => {
  let env;
  try {
    env = JSON.parse(l);
  } catch {
    return;
  }
  if (env.type === "handshake")
    return process.stdout.write(
      `${JSON.stringify({ type: "handshake_ack", protocol_version: "contextgraph/1.0", provider: { name: "crashy", version: "0.0.1" }, capabilities: {} })}\n`,
    );
  if (env.type === "query") {
    process.stderr.write(
      'Traceback (most recent call last):\n  File "provider.py", line 88, in on_query\n    cost = budget / 0\nZeroDivisionError: division by zero\n',
    );
    process.exit(1);
  }
  if (env.type === "shutdown") process.exit(0);
});
