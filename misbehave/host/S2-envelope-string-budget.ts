/**
 * Defect: sends query.max_tokens as a string.
 * Breaks the envelope schema (S2-envelope; B1/B4: "budgets and counts are u32 on the wire (max_tokens, max_frames,
 * token_cost)").
 */
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S2-envelope-string-budget",
  defect: 'sends query.max_tokens as the string "4000" instead of an integer',
  expectFail: ["host:S2-envelope"],
  finding: { code: "host:S2-envelope.invalid-envelope", params: { type: "query", pointer: "/query/max_tokens", keyword: "type" } },
  apply: (honest) => ({
    query(ack, n) {
      const q = honest.query.call(this, ack, n);
      return { ...q, query: { ...(isObj(q.query) ? q.query : {}), max_tokens: "4000" } };
    },
  }),
});
