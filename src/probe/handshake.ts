import { defineProbe } from "./probe.ts";
import { HANDSHAKE } from "../protocol/probes.ts";

/** The opening handshake alone: what the provider declares about itself. */
export default defineProbe({
  ...HANDSHAKE,
  async run() {},
});
