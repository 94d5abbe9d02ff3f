import { family, HOST_VERSION } from "../src/math/version.ts";
import { defineMode } from "./mode.ts";

/** Breaks H3: "A version-family mismatch MUST be reported as a named error, never left to hang." */
export default defineMode({
  name: "H3-hang-on-foreign",
  defect: "says nothing at all to a handshake from a foreign major family",
  expectFail: ["H3"],
  finding: { code: "H3.no-reply", params: { silence: { kind: "timeout" } } },
  apply: (honest) => ({
    onHandshake(env) {
      return family(env.protocol_version) === family(HOST_VERSION) ? honest.onHandshake.call(this, env) : [];
    },
  }),
});
