import { BASE_KINDS } from "../src/protocol/caps.ts";
import { error } from "../fixtures/provider.ts";
import { defineMode } from "./mode.ts";

/** Breaks U2: treats a kind outside the base vocabulary as a malformed request. */
export default defineMode({
  name: "U2-reject-unknown-kind",
  defect: "rejects a query naming a kind outside the base vocabulary with bad_request",
  expectFail: ["U2"],
  finding: /kinds \["acme:diagram"\] \(line \d+\) answered with error "bad_request"/,
  apply: (honest) => ({
    refuse(q, env) {
      const unknown = q.kinds.filter((k) => !(BASE_KINDS as readonly string[]).includes(k));
      return unknown.length > 0 ? error(env, "bad_request", `unknown kind ${unknown[0]}`) : honest.refuse.call(this, q, env);
    },
  }),
});
