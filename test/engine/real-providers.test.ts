/**
 * Providers as they really are: slow to start, never started, crashing on one
 * path, heavy. One cause is one finding, a crash hides nothing, and the run
 * keeps to its bound on provider instances.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { cli, fake, fixture } from "../helpers/live.ts";

const statuses = (r: { results: Array<{ id: string; status: string }> }): Record<string, string> => Object.fromEntries(r.results.map((x) => [x.id, x.status]));
const not = (s: Record<string, string>, ...ok: string[]): string[] =>
  Object.entries(s)
    .filter(([, v]) => !ok.includes(v))
    .map(([k, v]) => `${k}:${v}`);

t.test("a provider that loads for longer than the exchange deadline is judged on its answers, not its start", async (t) => {
  const command = ["/usr/bin/env", "SLOW_MS=1500", ...fake("slow-start"), ...fixture()];
  const { report } = await runSuite({ kind: "stdio", command }, { timeoutMs: 600, startupTimeoutMs: 10_000 });
  t.same(not(statuses(report), "pass", "skip", "info"), [], "nothing fails, warns or goes unobserved");
  t.equal(report.conformant, true);
  t.ok(report.instances!.peak <= 4, `at most 4 instances alive at once (${report.instances!.peak})`);
});

t.test("a provider whose later starts are slower than its first still gets the whole startup deadline in every session", async (t) => {
  const marker = join(mkdtempSync(join(tmpdir(), "cgp-first-")), "started");
  const command = ["/usr/bin/env", `FIRST_FILE=${marker}`, "SLOW_MS=1500", ...fake("slower-after-first"), ...fixture()];
  const { report } = await runSuite({ kind: "stdio", command }, { timeoutMs: 600, startupTimeoutMs: 10_000 });
  t.same(not(statuses(report), "pass", "skip", "info"), [], "a foreign or decorated handshake met while still loading is no hang");
});

t.test("a provider alive that never answers the handshake fails H1 once; nothing else is started", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: fake("never-answers") }, { timeoutMs: 300, startupTimeoutMs: 600 });
  const s = statuses(report);
  t.equal(s.H1, "fail");
  t.same(
    not(s, "unobserved").filter((x) => !x.startsWith("H1:")),
    [],
    "every other check is not observed",
  );
  t.equal(report.instances!.started, 1, "the scout was the only instance started");
  t.equal(report.could_not_run, false, "it started: it failed the handshake");
  t.match(report.results.find((r) => r.id === "H3")!.evidence[0]!.message, /did not complete the handshake in session shared, so no other session was started/);
});

t.test("a provider that exits before it writes a line could not run, in one short block with its own words", async (t) => {
  const { report, transcript } = await runSuite({ kind: "stdio", command: fake("exits-at-once") }, { timeoutMs: 500 });
  t.same(transcript.header.run_facts, { never_started: { how: "exit", exit_code: 2, signal: null, sessions: 2 } }, "the recorder writes the fact");
  t.equal(report.could_not_run, true);
  t.match(report.could_not_run_reason, /the provider never started: it exited with code 2 before writing a line \(in each of 2 sessions\)/);
  t.equal(report.instances!.started, 2, "started once, and once more in case that was its start's own mishap");
  t.match(report.provider_stderr!.lines.join("\n"), /can't open file/);
  const run = await cli(["stdio", "--", ...fake("exits-at-once")]);
  t.equal(run.exitCode, 3);
  t.ok(run.stdout.split("\n").length < 14, `a few lines, not one per check:\n${run.stdout}`);
  t.match(run.stdout, /can't open file/);
  t.match(run.stdout, /COULD NOT RUN: the provider never started/);
});

// A kinds query for a kind it declares is well-formed: R1's MUST covers a malformed line or bad request, so the crash
// warns under R1 (no keyword) and leaves Q1, whose stimulus it was, not observed (the run is not conformant either way).
t.test("a crash on one query shape is one R1 finding; what the session had not sent is sent in a fresh one", async (t) => {
  const { report, transcript } = await runSuite({ kind: "stdio", command: [...fake("crash-on-kind"), ...fixture()] }, { timeoutMs: 2000 });
  const s = statuses(report);
  t.equal(s.R1, "warn");
  t.equal(s.Q1, "unobserved", "only the check whose stimuli it died on is left not observed");
  t.same(
    not(s, "pass", "skip", "info").filter((x) => !/^(R1|Q1):/.test(x)),
    [],
    "every other check saw its evidence",
  );
  const crash = report.results.find((r) => r.id === "R1")!.evidence.filter((e) => e.status === "warn");
  t.equal(crash.length, 1, "one cause, one finding");
  t.match(crash[0]!.message, /on \d+ stimuli, each time the same way: a "query" \{"kinds":\["symbol"\]\}/);
  t.match(crash[0]!.message, /KeyError: 'symbol'/);
  t.ok(
    transcript.events.some((e) => e.session === "shared~2"),
    "the shared session was resumed",
  );
  t.ok(
    transcript.events.some((e) => e.note === "passed-over"),
    "and passed over the stimulus it died on when derived again",
  );
  t.ok(report.instances!.peak <= 4);
});

t.test("two bugs ending the provider alike (exit 1) are two causes: the unknown type is S2-framing's, the query R1's", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: [...fake("crash-two-ways"), ...fixture()] }, { timeoutMs: 2000 });
  const s = statuses(report);
  t.equal(s["S2-framing"], "fail", "dying on an unknown type is S2-framing's");
  t.equal(s.R1, "warn", "and dying on a well-formed symbol query is still R1's (a warning): no crash is left under no check");
  const r1 = report.results.find((r) => r.id === "R1")!.evidence.filter((e) => e.status === "warn");
  t.equal(r1.length, 1);
  t.match(r1[0]!.message, /KeyError: 'symbol'/);
  t.notMatch(r1[0]!.message, /ValueError/, "the other cause is not folded into it");
});

t.test("a provider that dies on every verify: one V2 finding, and R1 leaves that cause to V2 wherever it struck", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: [...fake("crash-on-verify"), ...fixture()] }, { timeoutMs: 2000 });
  const s = statuses(report);
  t.equal(s.V2, "fail");
  const v2 = report.results.find((r) => r.id === "V2")!.evidence.filter((e) => e.status === "fail");
  t.equal(v2.length, 1, "one cause, one finding");
  t.match(v2[0]!.message, /on \d+ stimuli, each time the same way: a "verify"/);
  t.match(v2[0]!.message, /NotImplementedError: verify/);
  t.not(s.R1, "fail", "the same crash in the correlation session is V2's too");
});

t.test("a crash on a malformed verify no longer hides a dropped id on verified (H4)", async (t) => {
  const { report } = await runSuite({ kind: "stdio", command: [...fake("crash-on-bad-verify"), ...fixture()] }, { timeoutMs: 2000 });
  const s = statuses(report);
  t.equal(s.H4, "fail");
  t.match(
    report.results
      .find((r) => r.id === "H4")!
      .evidence.map((e) => e.message)
      .join("\n"),
    /the "verified" answering the "verify" request .* carries no id/,
  );
  t.equal(s.R1, "fail", "the crash is R1's");
  t.same(
    not(s, "pass", "skip", "info").filter((x) => !/^(R1|H4):/.test(x)),
    [],
    "nothing else fails or goes unobserved",
  );
});

t.test("--jobs bounds the provider instances alive at once", async (t) => {
  const one = await runSuite({ kind: "stdio", command: fixture() }, { timeoutMs: 5000, jobs: 1 });
  t.equal(one.report.instances!.peak, 1);
  t.equal(one.report.conformant, true);
  t.ok(one.report.instances!.started <= 6, `${one.report.instances!.started} instances for the whole run`);
});
