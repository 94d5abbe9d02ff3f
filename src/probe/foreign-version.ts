import { FOREIGN_VERSION } from "../math/version.ts";
import { defineProbe } from "./probe.ts";

/** H3: a handshake from a major family the provider cannot share. */
export default defineProbe({
  name: "foreign-version",
  summary: `sends handshake with protocol_version ${FOREIGN_VERSION} and waits for the answer`,
  handshake: false,
  shared: false,
  async run(s) {
    s.send("foreign-handshake", { type: "handshake", protocol_version: FOREIGN_VERSION });
    await s.next("an error with code incompatible_version");
  },
});
