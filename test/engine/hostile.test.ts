import { execSync } from "node:child_process";
import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { fake } from "../helpers/live.ts";

const leftovers = (marker: string): string[] =>
  execSync("ps -eo args", { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(marker) && !l.includes("ps -eo"));

t.test("a provider that acks, then goes silent: every query-based check fails, untestable or observed", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("silent-after-handshake") }, { timeoutMs: 2000 });
  const status = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
  t.equal(status.H1, "pass");
  t.equal(status.H2, "pass");
  for (const id of ["S2-framing", "H3", "F1", "F2", "F3", "F4", "B1", "B3", "B4", "R1", "R2"]) t.equal(status[id], "fail", id);
  t.equal(report.conformant, false);
  t.same(leftovers("silent-after-handshake"), [], "no provider process is left behind");
});

t.test("a provider that never answers (and leaves a grandchild): all fail, the whole group is reaped", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("never-answers") }, { timeoutMs: 500 });
  t.ok(
    report.results.every((r) => r.status === "fail"),
    report.results.map((r) => `${r.id}:${r.status}`).join(" "),
  );
  t.match(report.results.find((r) => r.id === "H1")!.evidence[0]!.actual, /nothing within 500 ms/);
  await new Promise((r) => setTimeout(r, 100));
  t.same(leftovers("cgp-fake-grandchild"), [], "the grandchild in the provider's group is killed too");
});

t.test("the global deadline cuts a run short with untestable failures", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("never-answers") }, { timeoutMs: 60_000, deadlineMs: 400 });
  t.ok(report.results.every((r) => r.status === "fail"));
  t.match(report.results.find((r) => r.id === "B3")!.evidence[0]!.message, /deadline/);
});

t.test("an over-long line is reported as a limit of the run (the cap is ours, no rule's), not a crash", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("long-line") }, { timeoutMs: 3000, maxLineBytes: 1024 });
  const s2 = report.results.find((r) => r.id === "S2-framing")!;
  const over = s2.evidence.find((e) => /a line over the line cap \(\d+ bytes read when it crossed it\) was not read; raise --max-line-bytes/.test(e.message));
  t.equal(over?.status, "info");
  t.equal(report.results.find((r) => r.id === "H1")!.status, "pass", "the ack after it is still read");
});

t.test("a provider flooding envelopes that answer nothing: every read still ends on time, memory stays bounded", async (t) => {
  const { report, transcript } = await runSuite({ kind: "stdio", command: fake("flood") }, { timeoutMs: 1000, deadlineMs: 20_000 });
  t.ok(
    report.results.every((r) => r.status === "fail"),
    report.results.map((r) => `${r.id}:${r.status}`).join(" "),
  );
  t.ok(transcript.events.filter((e) => e.dir === "recv").length <= 20_000 * 10, "recording is capped per session");
  t.same(leftovers("fakes/flood.mjs"), [], "no provider process is left behind");
});

t.test("a program that does not exist: could not run", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: ["/nonexistent/cgp-provider"] }, { timeoutMs: 500 });
  t.equal(report.could_not_run, true);
  t.ok(report.results.every((r) => r.status === "fail" && r.untestable));
  t.match(report.results[0]!.evidence[0]!.message, /could not be started/);
});
