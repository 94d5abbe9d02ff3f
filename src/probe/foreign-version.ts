import { FOREIGN_VERSION } from "../math/version.ts";
import { defineProbe } from "./probe.ts";
import { FOREIGN_VERSION_PROBE } from "../protocol/probes.ts";

/** H3: a handshake from a major family the provider cannot share. */
export default defineProbe({
  ...FOREIGN_VERSION_PROBE,
  async run(s) {
    s.send(FOREIGN_VERSION_PROBE.steps.foreign, { type: "handshake", protocol_version: FOREIGN_VERSION });
    await s.reply();
  },
});
