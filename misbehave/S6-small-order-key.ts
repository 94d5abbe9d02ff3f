import { defineMode } from "./mode.ts";

/** Breaks §6.5.4: "a strict Ed25519 verifier — one rejecting small-order public keys". */
export default defineMode({
  name: "S6-small-order-key",
  defect: "publishes the identity point (a small-order key) in attester_keys",
  expectFail: [],
  expectWarn: ["S6-signatures"],
  finding: { code: "S6-signatures.malformed-key", params: { why: "small-order point (8A = identity)" } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      const keys = (ack.attester_keys as Array<Record<string, unknown>> | undefined) ?? [];
      return { ...ack, attester_keys: keys.map((k) => ({ ...k, public_key: `01${"00".repeat(31)}` })) };
    },
  }),
});
