import B1 from "../../checks/B1.ts";
import { BUDGET_SQUEEZE } from "../../src/protocol/probes.ts";
import { costing as f, squeeze } from "../helpers/budget.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySample, query } from "../helpers/transcript.ts";

runCases(B1, [
  { name: "every answer within budget", build: squeeze([f("a", 3)], [f("a", 3)]), status: "pass", says: [/tight-tokens: 1 frames cost 3 ≤ max_tokens 4/] },
  {
    name: "over budget under pressure",
    build: squeeze([f("a", 3)], [f("a", 3), f("b", 5)]),
    status: "fail",
    says: [/max_tokens was 4 but the 2 frames returned declare token_cost 3 \+ 5 = 8/],
  },
  {
    name: "only errors came back",
    build: () =>
      emptySample()
        .probe(BUDGET_SQUEEZE.name)
        .handshake()
        .send(BUDGET_SQUEEZE.steps.generous, query("q1"))
        .recv({ type: "error", id: "q1", code: "unavailable", message: "down" }),
    status: "skip",
  },
]);
