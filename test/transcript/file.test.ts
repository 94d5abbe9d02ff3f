import t from "tap";
import { fromNdjson, toNdjson, TranscriptFormatError } from "../../src/transcript/file.ts";
import { deriveRunFacts } from "../../src/transcript/run-facts.ts";
import { RUN_BUDGET_SPENT } from "../../src/transcript/types.ts";
import { decodeUtf8, escapedBytes, fromHex, isUtf8, recordedLine, toHex } from "../../src/transcript/bytes.ts";

const header = { cgp_conform_transcript: 1, host_version: "contextgraph/1.0", timeout_ms: 5, target: { kind: "stdio", command: ["x"] } };
const base = { probe: "malformed-input", session: "malformed-input", t: 0, step: "bad-invalid-utf8" };
const file = (...events: object[]): string => [header, ...events].map((e) => JSON.stringify(e)).join("\n");

t.test("a line that is not UTF-8 is recorded as its decoding and its exact bytes", async (t) => {
  t.same(recordedLine(Uint8Array.of(0xff, 0xfe)), { line: "\uFFFD\uFFFD", line_hex: "fffe" });
  t.same(
    recordedLine(Buffer.from('{"a":"\u0000\r"}\r', "utf8")),
    { line: '{"a":"\u0000\r"}\r' },
    "bytes that are UTF-8 need no hex: the text says them exactly",
  );
  t.same(recordedLine("as is"), { line: "as is" });
  const sent = { ...base, dir: "send", seq: 1, ...recordedLine(Uint8Array.of(0xff, 0xfe)) };
  const back = fromNdjson(toNdjson({ header, events: [sent] })).events[0]!;
  t.equal(back.line_hex, "fffe", "read back");
  t.same(fromHex(back.line_hex!), Uint8Array.of(0xff, 0xfe), "the exact bytes again");
});

t.test("the reader holds line_hex to what it says", async (t) => {
  const cases: Array<[string, object, RegExp]> = [
    ["on a received line", { ...base, dir: "recv", line: "\uFFFD\uFFFD", line_hex: "fffe" }, /line_hex belongs to a line sent/],
    ["odd hex", { ...base, dir: "send", line: "\uFFFD", line_hex: "fff" }, /two digits a byte/],
    ["uppercase hex", { ...base, dir: "send", line: "\uFFFD\uFFFD", line_hex: "FFFE" }, /lowercase hex/],
    ["bytes that are UTF-8", { ...base, dir: "send", line: "ok", line_hex: "6f6b" }, /only for bytes that are not/],
    ["a line that is not their decoding", { ...base, dir: "send", line: "??", line_hex: "fffe" }, /line is not the UTF-8 decoding of line_hex/],
    ["not a string", { ...base, dir: "send", line: "\uFFFD", line_hex: 255 }, /line_hex must be string/],
  ];
  for (const [what, event, says] of cases) t.throws(() => fromNdjson(file(event)), { constructor: TranscriptFormatError, message: says }, what);
  t.doesNotThrow(
    () => fromNdjson(file({ ...base, dir: "note", note: "unsent", line: "\uFFFD\uFFFD", line_hex: "fffe", seq: 2, reason: "the provider had exited" })),
    "an unsent note keeps the bytes it did not send",
  );
  t.throws(() => fromNdjson(file({ ...base, dir: "note", note: "unsent-ish" })), /note "unsent-ish" is not a kind/);
});

t.test("bytes for a reader", async (t) => {
  t.equal(escapedBytes(Uint8Array.of(0xff, 0xfe)), "\\xFF\\xFE");
  t.equal(escapedBytes(Buffer.from("é ✓ 😀", "utf8")), "é ✓ 😀", "UTF-8 of every length reads as text");
  t.equal(escapedBytes(Uint8Array.of(0x61, 0xe2, 0x9c, 0x62)), "a\\xE2\\x9Cb", "a cut sequence is bytes");
  t.equal(escapedBytes(Uint8Array.of(0xed, 0xa0, 0x80)), "\\xED\\xA0\\x80", "an encoded surrogate (CESU) is no UTF-8");
  t.equal(escapedBytes(Uint8Array.of(0xc0, 0xaf)), "\\xC0\\xAF", "an overlong form is no UTF-8");
  t.equal(escapedBytes(Uint8Array.of(0xf4, 0x90, 0x80, 0x80)), "\\xF4\\x90\\x80\\x80", "past U+10FFFF is no UTF-8");
  for (const b of [[0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x61]]) {
    const bytes = Uint8Array.from(b);
    t.equal(isUtf8(bytes), !escapedBytes(bytes).includes("\\x"), `${toHex(bytes)}: the escaper and the decoder agree`);
  }
  t.equal(decodeUtf8(Uint8Array.of(0x61, 0xff, 0x62)), "a\uFFFDb");
});

t.test("a provider run in process is said so in the header, and only as true", async (t) => {
  const inProcess = { ...header, target: { kind: "stdio", command: ["x"], in_process: true } };
  t.same(fromNdjson(JSON.stringify(inProcess)).header.target, { kind: "stdio", command: ["x"], in_process: true });
  const wrong = { ...header, target: { kind: "stdio", command: ["x"], in_process: "yes" } };
  t.throws(() => fromNdjson(JSON.stringify(wrong)), { constructor: TranscriptFormatError, message: /target\.in_process must be true/ });
});

t.test("the header's run facts are read as strictly as its events", async (t) => {
  const cases: Array<[string, object, RegExp]> = [
    [
      "a consent record with a number for a scope",
      { consent: { grants: [], missing: [-9223372036854776000] } },
      /consent\.missing must be an array of strings/,
    ],
    ["needed not a list", { consent: { grants: [], needed: "egress" } }, /consent\.needed must be an array of strings/],
    ["granted with a null", { consent: { grants: [], granted: [null] } }, /consent\.granted must be an array of strings/],
    ["a why that is not words", { consent: { grants: [], why: 7 } }, /consent\.why must be a string/],
    ["interrupted by no signal", { interrupted: "a Tuesday" }, /interrupted must be a signal's name/],
  ];
  for (const [what, extra, says] of cases)
    t.throws(() => fromNdjson(JSON.stringify({ ...header, ...extra })), { constructor: TranscriptFormatError, message: says }, what);
  const read = fromNdjson(JSON.stringify({ ...header, consent: { grants: ["all"] }, interrupted: "SIGINT" })).header;
  t.same(read.consent, { needed: [], granted: [], missing: [], grants: ["all"] }, "a record of grants alone reads as nothing needed");
});

t.test("run_facts are read as strictly as events, and derived for a transcript saved before them", async (t) => {
  const spent = { n: 2, ...base, dir: "note", note: "flood", reason: `${RUN_BUDGET_SPENT}, across all its sessions: 40 MiB; the provider was stopped` };
  const cases: Array<[string, object, RegExp]> = [
    ["not an object", { run_facts: [] }, /run_facts must be an object/],
    ["a fact this tool does not record", { run_facts: { crashed: true } }, /run_facts\.crashed is not a fact/],
    [
      "a budget at a line before any event",
      { run_facts: { budget_spent: { line: -9223372036854776000, reason: RUN_BUDGET_SPENT } } },
      /budget_spent must be \{ line, reason \}/,
    ],
    ["a budget for another reason", { run_facts: { budget_spent: { line: 2, reason: "it felt like it" } } }, /a reason beginning/],
    ["no sessions", { run_facts: { never_started: { how: "exit", exit_code: 1, signal: null, sessions: 0 } } }, /sessions must be an integer ≥ 1/],
    ["an unknown way", { run_facts: { never_started: { how: "vanished", sessions: 1 } } }, /how must be spawn-error, connect-error or exit/],
    [
      "an exit code of words",
      { run_facts: { never_started: { how: "exit", exit_code: "127", signal: null, sessions: 1 } } },
      /exit_code must be an integer or null/,
    ],
    [
      "a signal that is none",
      { run_facts: { never_started: { how: "exit", exit_code: null, signal: "kill", sessions: 1 } } },
      /signal must be a signal's name/,
    ],
    ["an error that is not words", { run_facts: { never_started: { how: "spawn-error", error: 2, sessions: 1 } } }, /error must be a string/],
  ];
  for (const [what, extra, says] of cases)
    t.throws(() => fromNdjson(JSON.stringify({ ...header, ...extra })), { constructor: TranscriptFormatError, message: says }, what);

  const legacy = fromNdjson(file(spent));
  t.same(legacy.header.run_facts, { budget_spent: { line: 2, reason: spent.reason } }, "saved before the facts: derived from the flood note");
  t.same(legacy.header.run_facts, deriveRunFacts(legacy.events), "by the function the recorder uses");
  const recorded = (facts: object, ...events: object[]) =>
    [JSON.stringify({ ...header, run_facts: facts }), ...events.map((e) => JSON.stringify(e))].join("\n");
  // The report reads the facts, not the events: facts the events contradict are refused, whichever way they lie.
  t.throws(() => fromNdjson(recorded({}, spent)), /run_facts say \{\}, but the transcript's events show \{"budget_spent"/, "a spent budget left out");
  const exits = [1, 2].map((i) => ({ ...base, session: `s${i}`, dir: "note", note: "exit", exitCode: 127, signal: null }));
  const never = { how: "exit", exit_code: 127, signal: null, sessions: 2 };
  t.same(fromNdjson(recorded({ never_started: never }, ...exits)).header.run_facts, { never_started: never }, "facts the events bear out are read as recorded");
  t.throws(() => fromNdjson(recorded({}, ...exits)), /but the transcript's events show \{"never_started"/, "a run that never started said to have run");
  const answered = { ...base, session: "s1", dir: "recv", line: "{}" };
  t.throws(
    () => fromNdjson(recorded({ never_started: never }, answered, ...exits)),
    /run_facts say .*never_started.*, but the transcript's events show \{\}/,
    "a run that was answered said never to have started",
  );
  t.throws(
    () => fromNdjson(recorded({ never_started: { ...never, sessions: 9007199254740991 } }, ...exits)),
    /events show/,
    "a count of sessions the events do not hold",
  );
  t.throws(() => fromNdjson(recorded({ never_started: { ...never, exit_code: null } }, ...exits)), /events show/, "an exit with neither code nor signal");
});

t.test("a file read as bytes is the same transcript as its text: each line decoded apart, bytes no UTF-8 as the whole text's decoding", async (t) => {
  const recv = { ...base, step: "start", dir: "recv", line: '{"type":"x","s":"é → \uFFFD"}' };
  const text = `${toNdjson({ header, events: [recv, { ...base, dir: "note", note: "eof" }] })}`;
  const bytes = Buffer.concat([
    Buffer.from(text, "utf8"),
    Buffer.from('{"probe":"p","session":"s","t":0,"step":"x","dir":"stderr","text":"'),
    Uint8Array.of(0xe2),
    Buffer.from('"}\n'),
  ]);
  t.same(fromNdjson(bytes), fromNdjson(bytes.toString("utf8")));
  t.equal(fromNdjson(bytes).events[0]!.line, recv.line);
  t.throws(() => fromNdjson(Buffer.from(`${JSON.stringify(header)}\nnot json\n`)), /line 2 is not JSON/);
});

t.test("a run fact names what the transcript holds: a budget at a line of its flood note, no member the recorder does not write", async (t) => {
  const reason = `${RUN_BUDGET_SPENT}, across all its sessions: 40 MiB; the provider was stopped`;
  const spent = { ...base, dir: "note", note: "flood", reason };
  const eof = { ...base, dir: "note", note: "eof" };
  const withFacts = (run_facts: object, ...events: object[]): string => [{ ...header, run_facts }, ...events].map((e) => JSON.stringify(e)).join("\n");
  const cases: Array<[string, string, RegExp]> = [
    ["a line past the last", withFacts({ budget_spent: { line: 999_999, reason } }, spent), /budget_spent\.line 999999 is not a flood note of this transcript/],
    ["a line that is no flood", withFacts({ budget_spent: { line: 2, reason } }, eof, spent), /budget_spent\.line 2 is not a flood note/],
    [
      "a reason its note does not give",
      withFacts({ budget_spent: { line: 2, reason: `${RUN_BUDGET_SPENT}: elsewhere` } }, spent),
      /not the reason its note at line 2 gives/,
    ],
    ["a member inside budget_spent", withFacts({ budget_spent: { line: 2, reason, by: "x" } }, spent), /run_facts\.budget_spent\.by is not/],
    [
      "a member inside never_started",
      withFacts({ never_started: { how: "exit", exit_code: 1, signal: null, sessions: 1, extra: 1 } }),
      /run_facts\.never_started\.extra is not/,
    ],
  ];
  for (const [what, text, says] of cases) t.throws(() => fromNdjson(text), { constructor: TranscriptFormatError, message: says }, what);
  t.same(fromNdjson(withFacts({ budget_spent: { line: 3, reason } }, eof, spent)).header.run_facts, { budget_spent: { line: 3, reason } }, "as recorded: read");
});
