import { defineMode } from "./mode.ts";

/**
 * Dies on a well-formed query: every query whose kinds name "symbol", a kind
 * it serves and declares, kills it (its symbol index was never built), as a
 * real provider crashes on one path. Such a query is neither a malformed line
 * nor a bad request, so R1's MUST does not cover it: R1 warns (no keyword),
 * and the run is not conformant through the check those queries were for
 * (Q1), which reports them not observed. Each such stimulus is passed over
 * and the rest sent in a fresh session, so the one cause is one finding.
 */
export default defineMode({
  name: "R1-crash-on-one-kind",
  defect: 'throws (and so exits) on any query whose kinds include "symbol", a kind it serves',
  expectFail: [],
  expectWarn: ["R1"],
  expectUnobserved: ["Q1"],
  finding: { code: "R1.crashed-on-query", params: { exit_code: 1, stimulus: { type: "query", query: { kinds: ["symbol"] } } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: (honest) => ({
    onQuery(env) {
      const q = this.parseQuery(env.query);
      if (typeof q !== "string" && q.kinds.includes("symbol")) throw new Error("symbol index not built: KeyError 'symbol'");
      return honest.onQuery.call(this, env);
    },
  }),
});
