import { defineMode } from "./mode.ts";
import { error } from "../src/reference/provider.ts";

/**
 * Breaks H3: the family is the substring up to the first "." ("The major
 * family is the substring up to (not including) the first ."), so
 * contextgraph/10.0 is family contextgraph/10, not contextgraph/1; a provider
 * testing the version as a string prefix acknowledges it.
 */
export default defineMode({
  name: "H3-prefix-family",
  defect: 'takes every version beginning with "contextgraph/1" for its own family',
  expectFail: ["H3"],
  finding: { code: "H3.acknowledged", params: { sent: "contextgraph/10.0" } },
  apply: () => ({
    onHandshake(env) {
      const v = String(env.protocol_version);
      return v.startsWith("contextgraph/1") ? [this.ack()] : [error(env, "incompatible_version", `${JSON.stringify(v)} is not in this family`)];
    },
  }),
});
