import { error } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/**
 * Falls short of §2: an unrecognised notification (no id) is ignored, not
 * answered. The sentence carries no keyword, so the check warns.
 */
export default defineMode({
  name: "S2-answer-notification",
  defect: "answers every unknown envelope type with an error, notifications included",
  expectFail: [],
  expectWarn: ["S2-framing"],
  finding: "S2-framing.notification-answered",
  stdioOnly: "over HTTP every request body gets a response body, so answering a notification cannot be told from ignoring it",
  apply: () => ({
    onUnknown: (env) => [error(env, "bad_request", `unknown envelope type ${JSON.stringify(env.type)}`)],
  }),
});
