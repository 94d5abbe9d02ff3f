import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { isConsistent, usageReports } from "../../src/verdict/usage.ts";
import { fixture } from "../helpers/live.ts";
import { frame, frames, query, tx } from "../helpers/transcript.ts";

t.test("UR1: a usage report per query executed, whose totals re-sum", async (t) => {
  const { transcript, report } = await runSuite({ kind: "stdio", command: fixture() }, { timeoutMs: 20000 });
  t.ok(report.usage.length > 10, `${report.usage.length} queries reported`);
  for (const u of report.usage) t.ok(isConsistent(u), `query at line ${u.query_line}`);
  const first = report.usage[0]!;
  t.equal(first.providers[0]!.provider_id, "cgp-conform-reference");
  t.ok(
    first.providers[0]!.served_frames.every((f) => f.frame.frame_id && f.frame.content_digest),
    "frames named by identity",
  );
  t.same(usageReports(transcript), report.usage, "derived from the transcript alone");
});

t.test("an answer over budget is rejected whole (B2) and costs nothing", async (t) => {
  const f = (id: string, cost: number) => frame({ id, content: "x".repeat(cost * 4), token_cost: cost });
  const b = tx()
    .probe("sample-query")
    .handshake()
    .send("sample", query("s1", { max_tokens: 5 }))
    .recv(frames("s1", [f("a", 3), f("b", 3)]));
  const [u] = usageReports(b.build());
  t.match(u, { budget_requested: 5, budget_consumed: 0, providers: [{ frames_served: 0, frames_rejected: 2, token_cost: 0 }] });
  t.ok(isConsistent(u!));
});

t.test("isConsistent catches a total that does not re-sum", async (t) => {
  const good = {
    query_line: 2,
    answer_line: 3,
    budget_requested: 10,
    budget_consumed: 4,
    as_of: "2026-11-30T00:00:00Z",
    providers: [
      { provider_id: "p", frames_served: 1, frames_rejected: 0, token_cost: 4, served_frames: [{ frame: { provider_id: "p", frame_id: "a" }, token_cost: 4 }] },
    ],
  };
  t.ok(isConsistent(good));
  t.notOk(isConsistent({ ...good, budget_consumed: 5 }));
  t.notOk(isConsistent({ ...good, providers: [{ ...good.providers[0]!, token_cost: 3 }] }));
  t.notOk(isConsistent({ ...good, providers: [{ ...good.providers[0]!, frames_served: 2 }] }));
});
