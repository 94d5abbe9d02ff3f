// An honest-looking provider whose every answer is one line of many tiny valid frames
// (118 000 by default, about 15 MiB; HUGE_FRAMES sets the number): per-line and
// per-frame work must be linear, and the run's memory bounded, whatever it sends.
// With HUGE_ONCE=PATH, only the first query of the whole run (the process that
// creates PATH) gets the long answer; every other query gets its first frame.
import { openSync } from "node:fs";
import { createInterface } from "node:readline";
const n = Number(process.env.HUGE_FRAMES ?? 118_000);
const frames = [];
for (let i = 0; i < n; i++)
  frames.push(`{"id":"f${i}","kind":"doc","title":"t","content":"abcd","token_cost":1,"score":0.5,"citation_label":"c","uri":"cgp://huge"}`);
const body = frames.join(",");
let tried = false;
const claim = () => {
  try {
    openSync(process.env.HUGE_ONCE, "wx");
    return true;
  } catch {
    return false;
  }
};
const out = (s) => process.stdout.write(s + "\n");
createInterface({ input: process.stdin }).on("line", (l) => {
  let env;
  try {
    env = JSON.parse(l);
  } catch {
    return out('{"type":"error","code":"bad_request","message":"not json"}');
  }
  if (env?.type === "handshake")
    return out(
      JSON.stringify({
        type: "handshake_ack",
        protocol_version: "contextgraph/1.0",
        provider: { name: "huge", version: "1", data_flow: { reads: false, writes: false, egress: false } },
        capabilities: { query: { kinds: ["doc"] } },
      }),
    );
  if (env?.type === "shutdown") process.exit(0);
  if (env?.type !== "query") return out('{"type":"error","code":"bad_request","message":"?"}');
  const long = process.env.HUGE_ONCE === undefined || (!tried && ((tried = true), claim()));
  out(`{"type":"frames","result":{"frames":[${long ? body : frames[0]}],"truncated":false}}`);
});
