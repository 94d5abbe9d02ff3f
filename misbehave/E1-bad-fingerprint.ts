import { defineMode } from "./mode.ts";

/**
 * Falls short of E1's fingerprint grammar: <model-id>/<dimensions>[/<normalization>].
 * The grammar is one of §1's normative grammars: a fingerprint outside it fails.
 */
export default defineMode({
  name: "E1-bad-fingerprint",
  defect: 'declares embeddings_fingerprint "cgp-hash-embed", with no dimensions',
  expectFail: ["E1"],
  finding: { code: "E1.bad-fingerprint", params: { fingerprint: "cgp-hash-embed" } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, capabilities: { ...(ack.capabilities as object), embeddings_fingerprint: "cgp-hash-embed" } };
    },
  }),
});
