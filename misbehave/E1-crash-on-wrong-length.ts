import { FINGERPRINT } from "../fixtures/provider.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks E1 (and R1's "MUST NOT crash on a malformed line or bad request"):
 * exits on a vector whose length contradicts its declared dimension, where
 * E1 says it SHOULD reply bad_request.
 */
export default defineMode({
  name: "E1-crash-on-wrong-length",
  defect: "throws (and so exits) on an embedding whose length is not its declared dimension",
  expectFail: ["E1"],
  finding: /a query with an embedding of \d+ dimensions \(line \d+\) got no answer: the provider (exited|closed its output)/,
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: (honest) => ({
    refuse(q, env) {
      if (q.embedding && q.embedding.length !== Number(FINGERPRINT.split("/")[1])) throw new Error(`embedding of ${q.embedding.length} dimensions`);
      return honest.refuse.call(this, q, env);
    },
  }),
});
