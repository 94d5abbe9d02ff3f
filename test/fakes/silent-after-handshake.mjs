// Answers the handshake, then reads everything and never answers again.
import { createInterface } from "node:readline";
let acked = false;
createInterface({ input: process.stdin }).on("line", () => {
  if (acked) return;
  acked = true;
  process.stdout.write(
    JSON.stringify({
      type: "handshake_ack",
      protocol_version: "contextgraph/1.0",
      provider: { name: "silent", version: "1", data_flow: { reads: false, writes: false, egress: false } },
      capabilities: { query: { kinds: [] } },
    }) + "\n",
  );
});
setInterval(() => {}, 1 << 30);
