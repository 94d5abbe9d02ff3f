// Floods every session with what an honest provider never sends: it acks the handshake, answers every query with one
// line of about 15 MiB of frames (FLOOD_FRAMES sets their number), and every other request with bytes that never end
// in a newline, as fast as the pipe takes them. The run must keep a bounded amount across all its sessions at once.
import { createInterface } from "node:readline";
const n = Number(process.env.FLOOD_FRAMES ?? 118_000);
const frame = (i) => `{"id":"f${i}","kind":"doc","title":"t","content":"abcd","token_cost":1,"score":0.5,"citation_label":"c","uri":"cgp://flood"}`;
const huge = `{"type":"frames","result":{"frames":[${Array.from({ length: n }, (_, i) => frame(i)).join(",")}],"truncated":false}}\n`;
const endless = "x".repeat(1 << 16);
let pumping = false;
const pump = () => {
  while (process.stdout.write(endless));
  process.stdout.once("drain", pump);
};
createInterface({ input: process.stdin }).on("line", (l) => {
  let env;
  try {
    env = JSON.parse(l);
  } catch {}
  if (pumping) return;
  if (env?.type === "handshake")
    return process.stdout.write(
      JSON.stringify({
        type: "handshake_ack",
        protocol_version: "contextgraph/1.0",
        provider: { name: "flood", version: "1", data_flow: { reads: false, writes: false, egress: false } },
        capabilities: { query: { kinds: ["doc"] } },
      }) + "\n",
    );
  if (env?.type === "query") return process.stdout.write(huge);
  pumping = true;
  pump();
});
