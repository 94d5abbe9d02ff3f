import { FINGERPRINT } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks R1 ("MUST NOT crash on a malformed line or bad request"): exits on a
 * vector whose length contradicts its declared dimension, where E1 says it
 * SHOULD reply bad_request. The crash is R1's finding; E1's stimulus went
 * unanswered, so E1 is not observed.
 */
export default defineMode({
  name: "R1-crash-on-wrong-length",
  defect: "throws (and so exits) on an embedding whose length is not its declared dimension",
  expectFail: ["R1"],
  expectUnobserved: ["E1"],
  // Whichever probe sent it first (correlation's or embedding-mismatch's), the query is the reference's 8 dimensions and three more.
  finding: { code: "R1.crashed", params: { exit_code: 1, stimulus: { type: "query", query: { embedding: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] } } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: (honest) => ({
    refuse(q, env) {
      if (q.embedding && q.embedding.length !== Number(FINGERPRINT.split("/")[1])) throw new Error(`embedding of ${q.embedding.length} dimensions`);
      return honest.refuse.call(this, q, env);
    },
  }),
});
