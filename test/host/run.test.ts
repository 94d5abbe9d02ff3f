import t from "tap";
import { expand } from "../../src/host/command.ts";
import { scenarioBound, scenarioBoundMs } from "../../src/host/bound.ts";
import { CRASH_MID_QUERY, FAULT_BOUND_FLOOR_MS, LOCK_STEP, providersNamed, SCENARIOS, STOPS_ANSWERING } from "../../src/protocol/host-scenarios.ts";

t.test("expand fills every placeholder; {consent} is the scenario's consent, none where it gives none", async (t) => {
  const values = { provider: ["cgp-conform", "scenario-provider", "--socket", "/tmp/a b/p.sock"], token: "tok", consent: "egress" as const };
  t.same(expand(["host", "--consent", "{consent}", "--", "{provider}"], values), [
    "host",
    "--consent",
    "egress",
    "--",
    "cgp-conform",
    "scenario-provider",
    "--socket",
    "/tmp/a b/p.sock",
  ]);
  t.same(expand(["host", "--grant={consent}", "--provider={provider}", "--token={token}"], { ...values, consent: "none" }), [
    "host",
    "--grant=none",
    "--provider=cgp-conform scenario-provider --socket '/tmp/a b/p.sock'",
    "--token=tok",
  ]);
  t.same(expand(["host", "{url}", "{consent}"], { url: "http://127.0.0.1:9/", token: "tok", consent: "none" }), ["host", "http://127.0.0.1:9/", "none"]);
});

t.test("expand fills {ca} with the run's CA file, whole or inside a longer argument", async (t) => {
  const values = { url: "https://192.0.2.1:9/", token: "tok", consent: "none" as const, ca: "/tmp/run/ca.pem" };
  t.same(expand(["host", "--ca", "{ca}", "--cacert={ca}", "{url}"], values), [
    "host",
    "--ca",
    "/tmp/run/ca.pem",
    "--cacert=/tmp/run/ca.pem",
    "https://192.0.2.1:9/",
  ]);
});

t.test("further providers: a whole placeholder the scenario has no provider for is left out, one inside an argument is empty", async (t) => {
  const one = { provider: ["p1", "--x"], token: "tok", consent: "none" as const, context: "/d/context.ndjson", usage: "/d/usage.ndjson" };
  const three = { ...one, providers: [["p1", "--x"], ["p2"], ["p 3"]] };
  const command = ["host", "--context", "{context}", "--usage={usage}", "--", "{provider}", "--and", "--", "{provider2}", "--p3={provider3}"];
  t.same(expand(command, three), ["host", "--context", "/d/context.ndjson", "--usage=/d/usage.ndjson", "--", "p1", "--x", "--and", "--", "p2", "--p3='p 3'"]);
  t.same(expand(command, one), ["host", "--context", "/d/context.ndjson", "--usage=/d/usage.ndjson", "--", "p1", "--x", "--and", "--", "--p3="]);
  const urls = { url: "http://127.0.0.1:1/", urls: ["http://127.0.0.1:1/", "http://127.0.0.1:2/"], token: "tok", consent: "none" as const };
  t.same(expand(["host", "--url", "{url}", "{url2}", "{url3}", "--u3={url3}"], urls), ["host", "--url", "http://127.0.0.1:1/", "http://127.0.0.1:2/", "--u3="]);
});

t.test("how many providers a command can reach: its placeholders in turn, or the variable that lists them all", async (t) => {
  t.equal(providersNamed(["host", "{provider}"], "stdio"), 1);
  t.equal(providersNamed(["host", "{provider}", "{provider2}"], "stdio"), 2);
  t.equal(providersNamed(["host", "{provider}", "{provider3}"], "stdio"), 1, "a third without a second is not a second");
  t.equal(providersNamed(["host", "--all={provider}", "{provider2}", "{provider3}"], "stdio"), 3);
  t.equal(providersNamed(["sh", "-c", 'my-host --providers "$CGP_PROVIDER_COMMANDS"'], "stdio"), 3);
  t.equal(providersNamed(["host", "{url}", "{url2}"], "http"), 2);
  t.equal(providersNamed(["host", "{url}", "{provider2}"], "http"), 1, "a stdio placeholder reaches nothing over HTTP");
});

t.test("the fault scenarios are bounded by at least a reasonable host deadline; the others by the run's bound", async (t) => {
  t.ok(FAULT_BOUND_FLOOR_MS >= 45_000, "longer than a 30 s provider deadline, with room");
  for (const spec of [CRASH_MID_QUERY, STOPS_ANSWERING]) {
    t.equal(scenarioBoundMs(spec, { timeoutMs: 10_000 }), FAULT_BOUND_FLOOR_MS, `${spec.name}: the floor over the default bound`);
    t.equal(scenarioBoundMs(spec, { timeoutMs: 90_000 }), 90_000, `${spec.name}: a larger --timeout stands`);
    t.equal(scenarioBoundMs(spec, { timeoutMs: 1_000, floorMs: 3_000 }), 3_000, `${spec.name}: --fault-timeout stands in for the floor`);
    t.equal(scenarioBoundMs(spec, { timeoutMs: 5_000, floorMs: 3_000 }), 5_000, `${spec.name}: and never lowers the run's bound`);
    t.match(spec.summary, new RegExp(`at least ${FAULT_BOUND_FLOOR_MS.toLocaleString("en").replace(",", " ")} ms`), `${spec.name}: its summary says so`);
  }
  for (const spec of SCENARIOS.filter((s) => s !== CRASH_MID_QUERY && s !== STOPS_ANSWERING))
    t.equal(scenarioBoundMs(spec, { timeoutMs: 10_000, floorMs: 60_000 }), 10_000, `${spec.name}: the run's bound`);
  t.equal(scenarioBoundMs(LOCK_STEP, { timeoutMs: 2_500 }), 2_500);
});

t.test("with a startup allowance, a host process's bound runs from its first contact with a provider", async (t) => {
  const { runHost } = await import("../../src/host/run.ts");
  const spec = SCENARIOS[0]!;
  const noteOf = (tx: Awaited<ReturnType<typeof runHost>>) => tx.events.find((e) => e.note === "host-timeout" || e.note === "host-exit");
  // Two seconds starting (a runtime on a loaded machine), twice its bound, then it reaches its provider and ends at once.
  const late = await runHost({
    command: ["sh", "-c", 'sleep 2; exec "$@" </dev/null', "sh", "{provider}"],
    transport: "stdio",
    timeoutMs: 1000,
    startupMs: 30_000,
    scenarios: [spec],
  });
  t.match(noteOf(late), { note: "host-exit" }, "the start is not counted against the bound");
  t.ok(
    late.events.some((e) => e.note === "connected"),
    "it reached its provider",
  );
  const never = await runHost({
    command: [process.execPath, "-e", "setInterval(() => {}, 1000)"],
    transport: "stdio",
    timeoutMs: 60_000,
    startupMs: 300,
    scenarios: [spec],
  });
  t.match(
    noteOf(never),
    { note: "host-timeout", waitedMs: 300, reason: /^the host reached no provider within 300 ms/ },
    "reaching none is bounded by the allowance",
  );
});

t.test("a signal that came before a scenario's bound was set still ends it: as interrupted, not at the bound", async (t) => {
  const stop = new AbortController();
  stop.abort();
  const bound = scenarioBound(60_000, { signal: stop.signal });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([bound.reached, new Promise((r) => (timer = setTimeout(() => r("still waiting"), 2000)))]);
  clearTimeout(timer);
  bound.clear();
  t.equal(outcome, "interrupted");
});
