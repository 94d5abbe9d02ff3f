import B1 from "../../checks/B1.ts";
import { BUDGET_SQUEEZE, tokensStep } from "../../src/protocol/probes.ts";
import { costing as f, squeeze } from "../helpers/budget.ts";
import { runCases } from "../helpers/cases.ts";
import { emptySample, frames, query } from "../helpers/transcript.ts";

runCases(B1, [
  { name: "every answer within budget", build: squeeze([f("a", 3)], [f("a", 3)]), status: "pass", says: [/tight-tokens: 1 frame cost 3 ≤ max_tokens 4/] },
  {
    name: "over budget under pressure",
    build: squeeze([f("a", 3)], [f("a", 3), f("b", 5)]),
    status: "fail",
    codes: ["B1.over-budget"],
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
  {
    name: "no budget at all, answered with nothing",
    build: () =>
      squeeze([f("a", 3)], [f("a", 3)])()
        .send(tokensStep("0"), query("q4", { max_tokens: 0 }))
        .recv(frames("q4", [])),
    status: "pass",
  },
  {
    name: "no budget at all, answered with its cheapest frame anyway",
    build: () =>
      squeeze([f("a", 3)], [f("a", 3)])()
        .send(tokensStep("0"), query("q4", { max_tokens: 0 }))
        .recv(frames("q4", [f("a", 3)])),
    status: "fail",
    codes: ["B1.over-budget"],
    says: [/step tokens-0: max_tokens was 0 but the 1 frame returned declare token_cost 3 = 3/],
  },
  {
    name: "a budget below the cheapest frame, answered budget_unsatisfiable",
    build: () =>
      squeeze([f("a", 3)], [f("a", 3)])()
        .send(tokensStep("below-cheapest"), query("q4", { max_tokens: 2 }))
        .recv({ type: "error", id: "q4", code: "budget_unsatisfiable", message: "too small" }),
    status: "pass",
    says: [/step tokens-below-cheapest: max_tokens 2 is below the cheapest frame served \(3\), answered budget_unsatisfiable/],
  },
  {
    // The error table's budget_unsatisfiable carries no keyword: another code warns, never fails.
    name: "a budget below the cheapest frame, refused with bad_request",
    build: () =>
      squeeze([f("a", 3)], [f("a", 3)])()
        .send(tokensStep("below-cheapest"), query("q4", { max_tokens: 2 }))
        .recv({ type: "error", id: "q4", code: "bad_request", message: "too small" }),
    status: "warn",
    codes: ["B1.nothing-fits-other-error"],
    strict: "warn",
    says: [/answered error "bad_request"; the error table names budget_unsatisfiable .* \| no frames, or error budget_unsatisfiable \| error "bad_request"/],
  },
]);
