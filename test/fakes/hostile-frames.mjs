// An honest-looking provider whose answers carry what a parser or walker can trip on:
// a frame id and a provenance uri holding lone UTF-16 surrogates, signed answers
// (so commitments are computed), and, in its own session (unknown-members' decorated query), a 100 000-deep nested member.
import { createInterface } from "node:readline";
let queries = 0;
const out = (s) => process.stdout.write(s + "\n");
createInterface({ input: process.stdin }).on("line", (l) => {
  let env;
  try {
    env = JSON.parse(l);
  } catch {
    return out(JSON.stringify({ type: "error", code: "bad_request", message: "not json" }));
  }
  const id = env && env.id !== undefined ? `,"id":${JSON.stringify(env.id)}` : "";
  if (env?.type === "handshake")
    return out(
      JSON.stringify({
        type: "handshake_ack",
        protocol_version: "contextgraph/1.0",
        provider: { name: "hostile", version: "1", data_flow: { reads: false, writes: false, egress: false } },
        capabilities: { query: { kinds: ["doc"] }, correlation: true },
        attester_keys: [{ key_id: "k", algorithm: "ed25519", public_key: "00".repeat(32) }],
      }),
    );
  if (env?.type === "shutdown") process.exit(0);
  if (env?.type !== "query") return out(`{"type":"error"${id},"code":"bad_request","message":"?"}`);
  queries++;
  const deep = env.id === "decorated-1" ? `,"acme:deep":${"[".repeat(100_000)}${"]".repeat(100_000)}` : "";
  // Written by hand: JSON.stringify would not emit a lone surrogate escape this way.
  const frame = `{"id":"frm-\\ud800","kind":"doc","title":"t","content":"abcd","content_digest":"sha256:${"0".repeat(64)}","uri":"file:///tmp/\\udc00.md","score":0.5,"token_cost":1,"recorded_at":"2026-07-20T18:00:00Z","citation_label":"c","provenance":[{"type":"file","uri":"file:///tmp/\\udc00.md","digest":"sha256:${"0".repeat(64)}","method":"file-read"}]${deep}}`;
  const att = `{"frame":{"provider_id":"hostile","frame_id":"frm-\\ud800","content_digest":"sha256:${"0".repeat(64)}"},"attestation":{"signed_commitment":"sha256:${"1".repeat(64)}","key_id":"k","algorithm":"ed25519","signature":"${"00".repeat(64)}"}}`;
  out(`{"type":"frames"${id},"result":{"frames":[${frame}],"truncated":false,"frame_attestations":[${att}]}}`);
});
