import { defineMode } from "./mode.ts";

/** Breaks §6.5.4: a signature that does not verify under the published key. */
export default defineMode({
  name: "S6-bad-signature",
  defect: "changes one hex digit of every signature",
  expectFail: [],
  expectWarn: ["S6-signatures"],
  // A flipped bit gives bad-signature, or malformed-signature where R is then no point on the curve: which one
  // hangs on the signed bytes (they hold the run's file paths), and a code pin names one code, so the words pin it.
  finding: /the signature (does not verify under key|is refused by a strict verifier: R: not a point on the curve)/,
  apply: (honest) => ({
    sign(commitment) {
      const sig = honest.sign.call(this, commitment);
      return (sig[0] === "0" ? "1" : "0") + sig.slice(1);
    },
  }),
});
