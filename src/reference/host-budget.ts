/**
 * B1's audit of an answer, as the reference host takes it: frames that
 * together cost more than the query's max_tokens are all dropped, none
 * truncated to fit (B2), and the host says so, naming the provider, what
 * the frames cost and the budget they broke. The driver counts the drop in
 * the usage report's frames_rejected.
 */
import { providerName } from "../protocol/caps.ts";
import { isObj } from "../protocol/envelope.ts";
import { framesOf, shown, type Behaviours } from "./host-contract.ts";

export const budget: Behaviours<"budgetAudit"> = {
  budgetAudit(query, env, ack) {
    const max = isObj(query.query) ? query.query.max_tokens : undefined;
    if (!Number.isSafeInteger(max)) return undefined;
    const frames = framesOf(env);
    const spent = frames.reduce((a, f) => a + (Number.isSafeInteger(f.token_cost) && (f.token_cost as number) > 0 ? (f.token_cost as number) : 0), 0);
    if (spent <= (max as number)) return undefined;
    const n = frames.length;
    return {
      code: "budget_exceeded",
      message: `provider ${shown(providerName(ack) ?? "(unnamed)")} broke B1: its ${n} frame${n === 1 ? "" : "s"} cost ${spent} tokens, over the query's max_tokens ${max}: all ${n} dropped, none truncated (B2)`,
    };
  },
};
