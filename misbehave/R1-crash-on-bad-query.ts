import { defineMode } from "./mode.ts";

/** Breaks R1: a query with missing or mistyped fields kills the provider. */
export default defineMode({
  name: "R1-crash-on-bad-query",
  defect: "throws (and so exits) on a query it cannot parse",
  expectFail: ["R1"],
  finding: { code: "R1.crashed", params: { exit_code: 1, stimulus: { type: "query", no_query: true, probe: "malformed-input", step: "bad-query-no-body" } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: (honest) => ({
    parseQuery(body) {
      const q = honest.parseQuery.call(this, body);
      if (typeof q === "string") throw new TypeError(q);
      return q;
    },
  }),
});
