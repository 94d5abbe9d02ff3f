import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { BUDGET_SQUEEZE, framesStep, tokensStep } from "../../src/protocol/probes.ts";
import { fixture } from "../helpers/live.ts";

const BUN_FIXTURE = [...fixture(), "--attest"];

t.test("derived stimuli: drawn from what the provider served, each recording what it aims at and why, bounded by depth", async (t) => {
  const standard = await runSuite({ kind: "stdio", command: BUN_FIXTURE }, { timeoutMs: 20000 });
  const quick = await runSuite({ kind: "stdio", command: BUN_FIXTURE }, { timeoutMs: 20000, depth: "quick" });
  const sent = standard.transcript.events.filter((e) => e.dir === "send");
  const squeeze = sent.filter((e) => e.probe === BUDGET_SQUEEZE.name);
  const steps = squeeze.map((e) => e.step);
  for (const step of [
    tokensStep("0"),
    tokensStep("1"),
    tokensStep("below-cheapest"),
    tokensStep("sum-minus-1"),
    framesStep("0"),
    framesStep("n-minus-1"),
    framesStep(2),
    framesStep(3),
  ])
    t.ok(steps.includes(step), `budget-squeeze sends ${step}`);
  t.ok(
    squeeze.filter((e) => e.step !== "handshake").every((e) => e.aim && e.aim.rules.length > 0 && e.aim.why.length > 0),
    "every budget stimulus says which rules it aims at and why",
  );
  const exact = squeeze.filter((e) => e.step.startsWith("tokens-exact-")).map((e) => JSON.parse(e.line!).query.max_tokens as number);
  const served = JSON.parse(
    standard.transcript.events.find((e) => e.dir === "recv" && e.probe === BUDGET_SQUEEZE.name && e.step === BUDGET_SQUEEZE.steps.generous)!.line!,
  );
  const costs = new Set((served.result.frames as Array<{ token_cost: number }>).map((f) => f.token_cost));
  t.ok(exact.length > 0 && exact.every((c) => costs.has(c)), `each exact budget (${exact.join(", ")}) is a cost the provider served`);
  t.equal(standard.report.exploration?.depth, "standard");
  t.equal(standard.report.exploration?.exchanges, sent.length, "the report states how many lines were sent");
  t.equal(quick.report.exploration?.depth, "quick");
  t.ok(
    quick.report.exploration!.exchanges < standard.report.exploration!.exchanges,
    `quick sends fewer (${quick.report.exploration!.exchanges} < ${standard.report.exploration!.exchanges})`,
  );
  t.equal(standard.report.summary.fail, 0, "the honest provider stays clean under every derived stimulus");
  t.equal(quick.report.summary.fail, 0);
});
