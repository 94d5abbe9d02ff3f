import { family, HOST_VERSION } from "../src/math/version.ts";
import { error } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/** Breaks H3: the mismatch gets an error, but not the named incompatible_version one. */
export default defineMode({
  name: "H3-wrong-code",
  defect: "answers a foreign-family handshake with error code bad_request instead of incompatible_version",
  expectFail: ["H3"],
  finding: { code: "H3.not-named", params: { type: "error", code: "bad_request" } },
  apply: (honest) => ({
    onHandshake(env) {
      return family(env.protocol_version) === family(HOST_VERSION) ? honest.onHandshake.call(this, env) : [error(env, "bad_request", "unsupported version")];
    },
  }),
});
