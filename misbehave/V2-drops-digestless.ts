import { defineMode } from "./mode.ts";

/**
 * Breaks V2: answers only identities that carry a content_digest, dropping
 * the rest from the verified reply (a hollow verify for them). Only an
 * identity without a digest shows it.
 */
export default defineMode({
  name: "V2-drops-digestless",
  defect: "returns no verdict for an identity without a content_digest",
  expectFail: ["V2"],
  finding: /\d+ of \d+ identities got no verdict echoing them in full: \("cgp-conform-reference", "[^"]+", absent\)/,
  apply: (honest) => ({
    onVerify(env) {
      const [reply] = honest.onVerify.call(this, env);
      const response = reply?.response as { verdicts?: Array<{ frame?: { content_digest?: unknown } }> } | undefined;
      if (!response?.verdicts) return reply ? [reply] : [];
      return [{ ...reply, response: { ...response, verdicts: response.verdicts.filter((v) => v.frame?.content_digest !== undefined) } }];
    },
  }),
});
