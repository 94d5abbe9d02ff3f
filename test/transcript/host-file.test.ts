/**
 * The strict reader of a saved host transcript, on what the second half of
 * the host checks added: providers, file lines, the unreadable note.
 */
import t from "tap";
import { hostFromNdjson } from "../../src/transcript/host-file.ts";
import { deriveHostRunFacts } from "../../src/transcript/host-run-facts.ts";

const header = (scenarios: object[] = [{ name: "compose", transport: "stdio", providers: 2 }]) =>
  JSON.stringify({ cgp_conform_host_transcript: 1, tool_version: "0", command: ["h"], transport: "stdio", timeout_ms: 1, started_at: "x", scenarios });
const file = (...events: object[]) => [header(), ...events.map((e) => JSON.stringify({ scenario: "compose", t: 0, ...e }))].join("\n");

t.test("what a run writes is read back", async (t) => {
  const r = hostFromNdjson(
    file(
      { dir: "host", line: "{}", provider: 1 },
      { dir: "note", note: "connected", provider: 0 },
      { dir: "context", line: '{"text":"x"}', bytes: 12 },
      { dir: "usage", line: "not json", bytes: 8, overLong: true },
      { dir: "note", note: "unreadable", reason: "gone" },
    ),
  );
  t.same(
    r.events.map((e) => [e.dir, e.provider ?? null]),
    [
      ["host", 1],
      ["note", 0],
      ["context", null],
      ["usage", null],
      ["note", null],
    ],
  );
  t.equal(r.header.scenarios[0]!.providers, 2);
});

const refused: Array<[string, string, RegExp]> = [
  ["a provider index out of range", file({ dir: "host", line: "{}", provider: 3 }), /provider must be 0 to 2/],
  ["a provider index that is no integer", file({ dir: "host", line: "{}", provider: "1" }), /provider must be int/],
  ["a file line said to be one provider's", file({ dir: "context", line: "{}", provider: 0 }), /a context event is of no one provider/],
  ["a printed line said to be one provider's", file({ dir: "stdout", line: "x", provider: 1 }), /a stdout event is of no one provider/],
  ["a file event without its line", file({ dir: "usage", bytes: 3 }), /a usage event must carry the line the host wrote/],
  ["a scenario of one provider said to have providers", [header([{ name: "lock-step", transport: "stdio", providers: 1 }])].join("\n"), /providers: 2 to 3/],
  ["a note kind no run writes", file({ dir: "note", note: "unreadablе" }), /is not a kind this tool records/],
];
for (const [what, text, why] of refused) t.throws(() => hostFromNdjson(text), why, what);

t.test("run_facts are read as strictly as events, and derived for a host transcript saved before them", async (t) => {
  const withFacts = (facts: unknown, extra: object = {}) =>
    JSON.stringify({ ...JSON.parse(header()), ...extra, ...(facts === undefined ? {} : { run_facts: facts }) });
  const cases: Array<[string, string, RegExp]> = [
    ["not an object", withFacts("none"), /run_facts must be an object/],
    ["a fact no run writes", withFacts({ crashed: 1 }), /run_facts\.crashed is not a fact/],
    ["never connected, said as false", withFacts({ never_connected: false }), /never_connected must be true/],
    ["an exit that is not the shell's", withFacts({ never_started: { how: "exit", exit_code: 1 } }), /exit_code: 126 or 127/],
    ["a spawn error with no words", withFacts({ never_started: { how: "spawn-error" } }), /how: spawn-error, error/],
    ["interrupted by no signal", withFacts(undefined, { interrupted: "later" }), /interrupted must be a signal's name/],
  ];
  for (const [what, text, why] of cases) t.throws(() => hostFromNdjson(text), why, what);
  const legacy = hostFromNdjson(file({ dir: "note", note: "spawn-error", reason: "ENOENT: no such file\n  at x" }));
  t.same(legacy.header.run_facts, { never_started: { how: "spawn-error", error: "ENOENT: no such file" } }, "saved before the facts: derived from the events");
  t.same(legacy.header.run_facts, deriveHostRunFacts(legacy.header.scenarios, legacy.events), "by the function the host run uses");
  const spawnError = JSON.stringify({ scenario: "compose", t: 0, dir: "note", note: "spawn-error", reason: "x" });
  // The report reads the facts, not the events: facts the events contradict are refused.
  t.throws(() => hostFromNdjson([withFacts({}), spawnError].join("\n")), /run_facts say \{\}, but the transcript's events show \{"never_started"/);
  t.same(hostFromNdjson([withFacts({ never_started: { how: "spawn-error", error: "x" } }), spawnError].join("\n")).header.run_facts, {
    never_started: { how: "spawn-error", error: "x" },
  });
});

t.test("a host run fact holds no member the host run does not write", async (t) => {
  const withFacts = (facts: unknown) => JSON.stringify({ ...JSON.parse(header()), run_facts: facts });
  t.throws(() => hostFromNdjson(withFacts({ never_started: { how: "exit", exit_code: 127, signal: "SIGKILL" } })), /run_facts\.never_started\.signal is not/);
  t.throws(
    () => hostFromNdjson(withFacts({ never_started: { how: "spawn-error", error: "x", exit_code: 127 } })),
    /run_facts\.never_started\.exit_code is not/,
  );
  const exit = JSON.stringify({ scenario: "compose", t: 0, dir: "note", note: "host-exit", exitCode: 127, signal: null });
  t.same(hostFromNdjson([withFacts({ never_started: { how: "exit", exit_code: 127 } }), exit].join("\n")).header.run_facts, {
    never_started: { how: "exit", exit_code: 127 },
  });
});

t.test("a host killed having reached no provider is told so by its ending, and contact is read as a boolean only", async (t) => {
  const { hostViews, describeEnding } = await import("../../src/transcript/host.ts");
  const { SCENARIOS } = await import("../../src/protocol/host-scenarios.ts");
  const lockStep = SCENARIOS.find((s) => s.name === "lock-step")!;
  const saved = (contact: unknown) =>
    [
      JSON.stringify({
        cgp_conform_host_transcript: 1,
        tool_version: "0",
        command: ["h"],
        transport: "stdio",
        timeout_ms: 1,
        started_at: "x",
        scenarios: [{ name: "lock-step", transport: "stdio" }],
      }),
      JSON.stringify({ scenario: "lock-step", t: 0, dir: "note", note: "host-timeout", waitedMs: 30000, contact, reason: "r" }),
    ].join("\n");
  const ending = hostViews(hostFromNdjson(saved(false)))(lockStep).ending();
  t.match(describeEnding(ending), /^reached no provider within 30000 ms \(--startup-timeout\) and was killed$/);
  const after = hostViews(hostFromNdjson(saved(true)))(lockStep).ending();
  t.match(describeEnding(after), /^did not end within 30000 ms and was killed$/, "a host that made contact hung as before");
  t.throws(() => hostFromNdjson(saved("no")), /contact/, "a contact that is no boolean is refused");
});
