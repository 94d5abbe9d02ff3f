import { defineMode } from "./mode.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/** Breaks V2: declares verify, then can never say valid, so it serves no verification at all. */
export default defineMode({
  name: "V2-unknown-everything",
  defect: "declares verify and answers unknown to every identity",
  expectFail: ["V2"],
  finding: { code: "V2.wrong-status", params: { step: VERIFY.steps.verifyServed, statuses: ['"unknown"'] } },
  apply: (honest) => ({
    verdict(identity) {
      const { frame } = honest.verdict.call(this, identity);
      return { frame, status: "unknown" };
    },
  }),
});
