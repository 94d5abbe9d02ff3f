import { execSync } from "node:child_process";
import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { fake } from "../helpers/live.ts";

const leftovers = (marker: string): string[] =>
  execSync("ps -eo args", { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(marker) && !l.includes("ps -eo"));

t.test("a provider that acks, then goes silent: every query-based check is not observed, and the run is not conformant", async (t) => {
  // Every exchange after the ack waits out the deadline: a short one proves the same (the handshakes wait the startup deadline).
  const { report, transcript } = await runSuite({ kind: "stdio", command: fake("silent-after-handshake") }, { timeoutMs: 500 });
  const status = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
  t.equal(status.H1, "pass");
  t.equal(status.H2, "pass");
  for (const id of ["S2-framing", "F1", "F2", "F3", "F4", "B1", "B3", "B4", "R1"]) t.equal(status[id], "unobserved", id);
  // A provider that answers nothing after its ack is no crash: nothing is failed that was not seen broken.
  t.same(
    report.results.filter((r) => r.status === "fail").map((r) => r.id),
    ["H3"],
    "only H3, whose foreign handshake it left to hang, fails",
  );
  t.equal(report.conformant, false);
  const shared = new Set(transcript.events.map((e) => e.session).filter((s) => s.startsWith("shared")));
  t.ok(shared.size <= 2, `a provider that wedges on every first request is not resumed over and over (${[...shared].join(", ")})`);
  t.same(leftovers("silent-after-handshake"), [], "no provider process is left behind");
});

t.test("a provider silent after its handshake costs each session one timeout: no second wait, no shutdown grace after it", async (t) => {
  const { transcript } = await runSuite({ kind: "stdio", command: fake("silent-after-handshake") }, { timeoutMs: 300, startupTimeoutMs: 20_000 });
  const sessions = Object.keys(transcript.header.sessions ?? {}).filter((s) => transcript.events.some((e) => e.session === s && e.dir === "send"));
  // Each group stops at its first fresh session whose opening query goes unanswered: two sessions at most.
  for (const g of new Set(sessions.map((s) => s.replace(/~\d+$/, "")))) {
    const of = sessions.filter((s) => s.replace(/~\d+$/, "") === g);
    t.ok(of.length <= 2, `${g}: ${of.length} sessions sent something`);
  }
  for (const name of sessions) {
    const events = transcript.events.filter((e) => e.session === name);
    const timeouts = events.filter((e) => e.note === "timeout");
    t.ok(timeouts.length <= 1, `${name}: ${timeouts.length} read deadline(s) waited out`);
    const after = timeouts.length === 0 ? [] : events.slice(events.indexOf(timeouts[0]!) + 1);
    t.notOk(
      after.some((e) => e.dir === "send"),
      `${name}: nothing is sent to a provider that has already let a request go unanswered (no shutdown to wait on)`,
    );
    const kills = events.filter((e) => e.note === "killed").map((e) => e.reason);
    t.same(kills, ["the probe had finished and the provider was still running"], `${name}: killed once, as the session ended, not after a grace`);
    t.ok(
      events.some((e) => e.note === "exit" && e.signal === "SIGKILL"),
      `${name}: reaped`,
    );
  }
  t.same(leftovers("silent-after-handshake"), [], "no provider process is left behind");
});

t.test("a provider that never answers (and leaves a grandchild): H1 fails, the rest is not observed, the whole group is reaped", async (t) => {
  // Long enough for the provider (a node process, slower to start under the test runner's loaders) to have started its grandchild.
  const { report } = await runSuite({ kind: "stdio", command: fake("never-answers") }, { timeoutMs: 500, startupTimeoutMs: 1500 });
  t.ok(
    report.results.every((r) => (r.id === "H1" ? r.status === "fail" : r.status === "unobserved")),
    report.results.map((r) => `${r.id}:${r.status}`).join(" "),
  );
  t.match(report.results.find((r) => r.id === "H1")!.evidence[0]!.actual, /nothing within 1500 ms/);
  await new Promise((r) => setTimeout(r, 100));
  t.same(leftovers("cgp-fake-grandchild"), [], "the grandchild in the provider's group is killed too");
});

t.test("the global deadline cuts a run short: what it cut is not observed", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("never-answers") }, { timeoutMs: 60_000, deadlineMs: 400 });
  t.ok(
    report.results.every((r) => r.status === "unobserved" || (r.id === "H1" && r.status === "fail")),
    report.results.map((r) => `${r.id}:${r.status}`).join(" "),
  );
  t.match(report.results.find((r) => r.id === "B3")!.evidence[0]!.message, /deadline/);
});

t.test("an over-long line is reported as a limit of the run (the cap is ours, no rule's), not a crash", async (t) => {
  // The fake answers the handshake only: every other exchange waits out the deadline, so it is short. The ack is
  // the first exchange's, which waits the startup deadline (30 s) instead.
  const { report } = await runSuite({ kind: "stdio", command: fake("long-line") }, { timeoutMs: 300, maxLineBytes: 1024 });
  const s2 = report.results.find((r) => r.id === "S2-framing")!;
  const over = s2.evidence.find((e) => /a line over the line cap \(\d+ bytes read when it crossed it\) was not read; raise --max-line-bytes/.test(e.message));
  t.equal(over?.status, "info");
  t.equal(report.results.find((r) => r.id === "H1")!.status, "pass", "the ack after it is still read");
});

t.test("a provider flooding envelopes that answer nothing: every read still ends on time, memory stays bounded", async (t) => {
  const { report, transcript } = await runSuite({ kind: "stdio", command: fake("flood") }, { timeoutMs: 1000, deadlineMs: 20_000 });
  t.ok(
    report.results.every((r) => r.status === "fail" || r.status === "unobserved"),
    report.results.map((r) => `${r.id}:${r.status}`).join(" "),
  );
  t.equal(report.conformant, false);
  t.ok(transcript.events.filter((e) => e.dir === "recv").length <= 20_000 * 10, "recording is capped per session");
  t.same(leftovers("fakes/flood.mjs"), [], "no provider process is left behind");
});

t.test("a program that does not exist: could not run", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: ["/nonexistent/cgp-provider"] }, { timeoutMs: 500 });
  t.equal(report.could_not_run, true);
  t.ok(report.results.every((r) => r.status === "unobserved" && r.untestable));
  t.match(report.results[0]!.evidence[0]!.message, /could not be started/);
});
