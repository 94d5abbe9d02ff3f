import { defineProbe } from "./probe.ts";

/** The opening handshake alone: what the provider declares about itself. */
export default defineProbe({
  name: "handshake",
  summary: "sends handshake (contextgraph/1.0) and records the handshake_ack",
  handshake: true,
  shared: true,
  async run() {},
});
