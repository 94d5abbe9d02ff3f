import { FOREIGN_VERSION, PREFIX_FOREIGN_VERSION } from "../math/version.ts";
import { defineProbe } from "./probe.ts";
import { FOREIGN_PREFIX_PROBE, FOREIGN_VERSION_PROBE } from "../protocol/probes.ts";

/** H3: a handshake from a major family the provider cannot share. */
export default defineProbe({
  ...FOREIGN_VERSION_PROBE,
  async run(s) {
    s.send(FOREIGN_VERSION_PROBE.steps.foreign, { type: "handshake", protocol_version: FOREIGN_VERSION });
    await s.reply();
  },
});

/** H3: a foreign family whose name begins with the host's ("10" after "contextgraph/"), which a prefix test takes for "1". */
export const foreignPrefix = defineProbe({
  ...FOREIGN_PREFIX_PROBE,
  async run(s) {
    s.send(
      FOREIGN_PREFIX_PROBE.steps.foreign,
      { type: "handshake", protocol_version: PREFIX_FOREIGN_VERSION },
      { rules: ["H3"], why: "a family that shares the host's first digit" },
    );
    await s.reply();
  },
});
