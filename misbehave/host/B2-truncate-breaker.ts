/**
 * Defect: keeps, of a provider over budget, the frames that fit, and says nothing.
 * Breaks B2: "A host MUST drop, with a loud report, the frames of any provider violating B1 — never silently
 * truncate them."
 */
import { BUDGET } from "../../src/reference/host-contract.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "B2-truncate-breaker",
  defect:
    "audits no answer against max_tokens: of a provider whose frames cost more than the budget it keeps those that fit, in the order served, and reports nothing",
  expectFail: ["host:B2"],
  finding: { code: "host:B2.truncated", params: { served: 3 } },
  apply: (honest) => ({
    budgetAudit: () => undefined,
    onFrames(env, ack) {
      let spent = 0;
      return honest.onFrames.call(this, env, ack).filter((f) => {
        const cost = typeof f.token_cost === "number" ? f.token_cost : 0;
        if (spent + cost > BUDGET) return false;
        spent += cost;
        return true;
      });
    },
  }),
});
