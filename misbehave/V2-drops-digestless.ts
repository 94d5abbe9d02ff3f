import { defineMode } from "./mode.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/**
 * Falls short of V2 for identities without a content_digest: drops them
 * from the verified reply (a hollow verify for them). A host SHOULD not send
 * them (V1), so what a provider owes them is a SHOULD: a warning. Only an
 * identity without a digest shows it.
 */
export default defineMode({
  name: "V2-drops-digestless",
  defect: "returns no verdict for an identity without a content_digest",
  expectFail: [],
  expectWarn: ["V2"],
  finding: { code: "V2.unechoed-keywordless", params: { step: VERIFY.steps.verifyDigestless } },
  apply: (honest) => ({
    onVerify(env) {
      const [reply] = honest.onVerify.call(this, env);
      const response = reply?.response as { verdicts?: Array<{ frame?: { content_digest?: unknown } }> } | undefined;
      if (!response?.verdicts) return reply ? [reply] : [];
      return [{ ...reply, response: { ...response, verdicts: response.verdicts.filter((v) => v.frame?.content_digest !== undefined) } }];
    },
  }),
});
