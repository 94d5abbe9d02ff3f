import { error } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { isObj } from "../src/protocol/envelope.ts";

const KNOWN = ["goal", "query_text", "embedding", "kinds", "anchors", "max_frames", "max_tokens", "as_of", "representation_preferences"];

/** Breaks U1: validates queries authoring-strict, rejecting members it does not know. */
export default defineMode({
  name: "U1-reject-unknown-members",
  defect: "rejects a query carrying a member it does not recognise with bad_request",
  expectFail: ["U1"],
  finding: { code: "U1.rejected", params: { code: "bad_request" } },
  apply: (honest) => ({
    onQuery(env) {
      const unknown = isObj(env.query) ? Object.keys(env.query).filter((k) => !KNOWN.includes(k)) : [];
      return unknown.length > 0 ? [error(env, "bad_request", `unknown query members: ${unknown.join(", ")}`)] : honest.onQuery.call(this, env);
    },
  }),
});
