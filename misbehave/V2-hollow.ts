import { reply } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/** Breaks V2 (the hollow witness): a verified reply with no verdicts in it. */
export default defineMode({
  name: "V2-hollow",
  defect: "answers verify with an empty verdict list",
  expectFail: ["V2"],
  finding: { code: "V2.unechoed", params: { step: VERIFY.steps.verifyServed } },
  apply: () => ({
    onVerify: (env) => [reply(env, { type: "verified", response: { verdicts: [] } })],
  }),
});
