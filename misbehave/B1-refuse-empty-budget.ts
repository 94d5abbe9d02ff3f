import { error } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/**
 * Falls short of the error table for a budget no frame fits: refuses it with
 * bad_request, where "budget too small for any meaningful frame" is
 * budget_unsatisfiable (stated with no keyword: a warning). Only a budget
 * below the cheapest frame's cost shows it.
 */
export default defineMode({
  name: "B1-refuse-empty-budget",
  defect: "answers a max_tokens no frame fits with bad_request instead of nothing or budget_unsatisfiable",
  expectFail: [],
  expectWarn: ["B1"],
  finding: { code: "B1.nothing-fits-other-error", params: { fits: { member: "max_tokens" }, error: "bad_request" } },
  apply: (honest) => ({
    refuse(q, env) {
      const costs = this.rank(this.eligible(q), q).map((d) => this.tokenCost(this.content(d)));
      if (costs.length > 0 && q.max_tokens < Math.min(...costs)) return error(env, "bad_request", `max_tokens ${q.max_tokens} is too small`);
      return honest.refuse.call(this, q, env);
    },
  }),
});
