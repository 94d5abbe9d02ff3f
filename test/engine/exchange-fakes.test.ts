/**
 * cgp-conform as a host: providers shaped unlike the reference one (lenient,
 * late, out of order, mangling ids, answering twice, crashing on one field,
 * wedged after the handshake, ignoring an unknown type) get the verdict the
 * spec supports, the same on every run. Each asserts a verdict, never a time.
 */
import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import type { TranscriptEvent } from "../../src/transcript/types.ts";
import { fake, fixture } from "../helpers/live.ts";

type Report = Awaited<ReturnType<typeof runSuite>>["report"];
/** Every check that did not pass or skip, with the codes of its findings that did not pass. */
const verdict = (r: Report): string[] =>
  r.results
    .filter((x) => x.status !== "pass" && x.status !== "skip")
    .map((x) => `${x.id}:${x.status}:${[...new Set(x.evidence.filter((e) => e.status !== "pass").map((e) => e.code))].sort().join(",")}`);
const lockstep = (): string[] => [...fixture(), "--variant", "lockstep"];
const run = (command: string[], timeoutMs = 3000) => runSuite({ kind: "stdio", command }, { timeoutMs, startupTimeoutMs: 10_000 });

t.test("a lenient provider (frames for a query with no query member) warns R1's SHOULD once, and nothing shifts", async (t) => {
  const { report, transcript } = await run([...fake("lenient-no-body"), ...lockstep()]);
  t.same(verdict(report), ["F5:info:F5.bytes-unchecked", "R1:warn:R1.no-bad-request"]);
  const r1 = report.results.find((x) => x.id === "R1")!;
  t.match(r1.evidence.find((e) => e.code === "R1.no-bad-request")!.actual, /^"frames"/, "its answer, frames, is named");
  // The one reply that answers nothing asked: the second fragment of the line with a bare CR, which this provider's
  // reader splits in two. It is attributed to that line, never to a query.
  const extra = transcript.events.filter((e) => e.pairing !== undefined);
  t.same(
    extra.map((e) => [e.pairing, e.step]),
    [["unasked", "bad-bare-cr"]],
  );
});

t.test("a correlated provider whose errors come late, after later replies, is credited with them", async (t) => {
  const { report } = await run([...fake("late-error"), ...fixture()]);
  // Every late error carrying an id is its request's, and every id-less one a malformed line's. Left open: an id-less
  // error 100 ms late may land in the instant a notification's chase is in flight and be read as the notification's
  // answer (S2-framing warns, about 1 run in 20): an id-less reply in a correlated session says nothing of its line.
  t.same(
    verdict(report).filter((v) => !v.startsWith("S2-framing:warn:")),
    ["F5:info:F5.bytes-unchecked"],
  );
});

t.test("a correlated provider answering out of order is paired by id", async (t) => {
  const { report } = await run([...fake("out-of-order"), ...fixture()]);
  t.same(verdict(report), ["F5:info:F5.bytes-unchecked"]);
});

t.test("a reply carrying another request's id, and an id answered twice, fail H4", async (t) => {
  const { report } = await run([...fake("last-id"), ...fixture()], 1500);
  const h4 = report.results.find((x) => x.id === "H4")!;
  t.equal(h4.status, "fail");
  t.ok(
    h4.evidence.some((e) => e.code === "H4.duplicate-reply"),
    "a second reply under one id",
  );
});

t.test("a correlated provider writing every frames reply twice fails H4, and only H4", async (t) => {
  const { report } = await run([...fake("duplicate-reply"), ...fixture()]);
  t.same(verdict(report), ["H4:fail:H4.duplicate-reply", "F5:info:F5.bytes-unchecked"]);
});

t.test("a crash on a wrong-typed field is that line's, and the stimuli after it are still sent", async (t) => {
  const { report, transcript } = await run([...fake("crash-on-string-field"), ...lockstep()]);
  const r1 = report.results.find((x) => x.id === "R1")!;
  t.equal(r1.status, "fail");
  const crashed = r1.evidence.filter((e) => e.code === "R1.crashed");
  t.equal(crashed.length, 1, "one cause, one finding");
  t.notOk(
    r1.evidence.some((e) => e.code === "R1.stopped-answering"),
    "the crash is not said twice",
  );
  t.match(crashed[0]!.message, /max_frames|wrong types/, "blamed on the query whose fields have the wrong types");
  t.match(crashed[0]!.message, /TypeError/, "with the provider's own words");
  const sent = (step: string) => transcript.events.filter((e: TranscriptEvent) => e.dir === "send" && e.step === step);
  t.ok(sent("bad-lone-surrogate").length > 0, "the stimulus after it was sent");
  t.notOk(
    transcript.events.some((e) => e.note === "passed-over" && e.step === "bad-lone-surrogate"),
    "and never passed over",
  );
});

t.test("a provider wedged after its handshake is found once per group: each group stops at its first unanswered canary", async (t) => {
  const { report, transcript } = await run(fake("silent-after-handshake"), 300);
  t.equal(report.conformant, false);
  const groups = Object.keys(transcript.header.sessions ?? {});
  for (const g of groups.filter((x) => !x.includes("~"))) {
    const sessions = groups.filter((x) => x === g || x.startsWith(`${g}~`));
    t.ok(sessions.length <= 2, `${g}: ${sessions.length} sessions`);
  }
  t.ok(
    transcript.events.some((e) => e.note === "canary"),
    "the canary that stopped a group is recorded",
  );
});

t.test("a lock-step provider ignoring an unknown type is shown alive by the query after it: no finding, no timeout", async (t) => {
  const { report, transcript } = await run([...fake("ignore-unknown-lockstep"), ...lockstep()]);
  t.same(verdict(report), ["F5:info:F5.bytes-unchecked"]);
  t.notOk(
    transcript.events.some((e) => e.note === "timeout" && e.probe === "unknown-type"),
    "nothing was waited out",
  );
});
