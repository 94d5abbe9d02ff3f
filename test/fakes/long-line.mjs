// Writes one 100 000-byte line with no JSON in it, then behaves: acks the handshake and exits on shutdown.
import { createInterface } from "node:readline";
process.stdout.write("x".repeat(100_000) + "\n");
createInterface({ input: process.stdin }).on("line", (l) => {
  const env = JSON.parse(l);
  if (env.type === "handshake")
    process.stdout.write(
      JSON.stringify({
        type: "handshake_ack",
        protocol_version: "contextgraph/1.0",
        provider: { name: "long", version: "1", data_flow: { reads: false, writes: false, egress: false } },
        capabilities: { query: { kinds: [] } },
      }) + "\n",
    );
  if (env.type === "shutdown") process.exit(0);
});
