import t from "tap";
import { readFileSync } from "node:fs";
import { validateText } from "../../src/schema/validate.ts";

const ACK = {
  type: "handshake_ack",
  protocol_version: "contextgraph/1.0",
  provider: { name: "p", version: "1.0.0", data_flow: { reads: true, writes: false, egress: false } },
  capabilities: { query: { kinds: ["doc"] }, upsert: false },
};

t.test("one JSON envelope", async (t) => {
  t.same(validateText('{"type":"shutdown"}', "lint"), [
    { index: 0, line: 1, type: "shutdown", judged_as: "envelope", definition: "#/$defs/Shutdown", errors: [] },
  ]);
  const pretty = `\n\n${JSON.stringify({ type: "error", message: "" }, null, 2)}\n`;
  const [r] = validateText(pretty, "interop");
  t.equal(r?.line, 3, "a pretty-printed document starts on its first non-blank line");
  t.equal(r?.type, "error");
  t.same(
    r?.errors.map((e) => [e.instancePath, e.message]),
    [["/message", "must not be empty"]],
  );
});

t.test("a JSON array of envelopes", async (t) => {
  const text = JSON.stringify([{ type: "shutdown" }, ACK, 42], null, 2);
  const interop = validateText(text, "interop");
  t.same(
    interop.map((r) => [r.index, r.line, r.type, r.errors.length]),
    [
      [0, undefined, "shutdown", 0],
      [1, undefined, "handshake_ack", 0],
      [2, undefined, undefined, 1],
    ],
  );
  t.same(
    interop[2]?.errors.map((e) => e.keyword),
    ["type"],
    "a non-object element is not an envelope",
  );
  const lint = validateText(text, "lint");
  t.same(
    lint[1]?.errors.map((e) => e.instancePath),
    ["/capabilities/upsert"],
    "lint rejects the unknown capability (U1 is interop only)",
  );
});

t.test("NDJSON: one envelope per line, blank lines skipped", async (t) => {
  const text = ['{"type":"handshake","protocol_version":"contextgraph/1.0"}', "", JSON.stringify(ACK), "   ", '{"type":"shutdown"}', ""].join("\r\n");
  const results = validateText(text, "lint");
  t.same(
    results.map((r) => [r.index, r.line, r.type]),
    [
      [0, 1, "handshake"],
      [1, 3, "handshake_ack"],
      [2, 5, "shutdown"],
    ],
  );
  t.same(
    results.map((r) => r.errors.length),
    [0, 1, 0],
  );
  t.same(
    validateText(text, "interop").map((r) => r.errors.length),
    [0, 0, 0],
  );
});

t.test("a line that is not JSON", async (t) => {
  const text = '{"type":"shutdown"}\n{"type": "query",\n{"type":"nonsense"}\n';
  const results = validateText(text, "interop");
  t.equal(results.length, 3);
  t.same(results[0]?.errors, []);
  t.equal(results[1]?.line, 2);
  t.equal(results[1]?.type, undefined);
  t.same(
    results[1]?.errors.map((e) => [e.keyword, e.instancePath]),
    [["json", ""]],
    "one json error",
  );
  t.match(results[1]?.errors[0]?.message, /^not JSON: /);
  t.same(
    results[2]?.errors.map((e) => [e.keyword, e.instancePath]),
    [["oneOf", "/type"]],
    "the next line is still judged",
  );
});

t.test("empty input has no envelopes", async (t) => {
  t.same(validateText("", "lint"), []);
  t.same(validateText("\n \n", "lint"), []);
});

t.test("the reference session, as a fixture author would check it", async (t) => {
  const text = readFileSync(new URL("../published/full-stdio-session.ndjson", import.meta.url), "utf8");
  const results = validateText(text, "interop");
  t.same(
    results.map((r) => r.type),
    ["handshake", "handshake_ack", "query", "frames", "verify", "verified", "shutdown"],
  );
  t.same(
    results.filter((r) => r.errors.length > 0).map((r) => r.line),
    [4, 5, 6],
    "the lines with placeholder digests",
  );
});

const upstream = (name: string): string => readFileSync(new URL(`../upstream/${name}`, import.meta.url), "utf8");
const cases = (name: string, member: "source" | "input"): Array<{ name: string; value: Record<string, unknown> }> =>
  (JSON.parse(upstream(name)) as { cases: Array<Record<string, unknown>> }).cases.map((c) => ({
    name: c.name as string,
    value: c[member] as Record<string, unknown>,
  }));
const verdicts = (rs: ReturnType<typeof validateText>) => rs.map((r) => [r.judged_as, r.definition, r.errors.map((e) => `${e.instancePath} ${e.keyword}`)]);

t.test("the protocol's golden fixtures validate as what they are, given --as and detected", async (t) => {
  const documents = [
    { name: "context-frame.compact.valid.json", kind: "frame", text: upstream("context-frame.compact.valid.json") },
    { name: "context-frame.reference.valid.json", kind: "frame", text: upstream("context-frame.reference.valid.json") },
    ...cases("context-frame.valid.json", "source").map((c) => ({ name: c.name, kind: "frame", text: JSON.stringify(c.value) })),
    ...cases("context-query.valid.json", "source").map((c) => ({ name: c.name, kind: "context-query", text: JSON.stringify(c.value) })),
  ];
  t.equal(documents.length, 5);
  for (const { name, kind, text } of documents) {
    const definition = kind === "frame" ? "#/$defs/ContextFrame" : "#/$defs/ContextQuery";
    for (const mode of ["lint", "interop"] as const) {
      t.same(verdicts(validateText(text, mode, kind)), [[kind, definition, []]], `${name}, --as ${kind}, ${mode}`);
      const [detected] = validateText(text, mode);
      t.same([detected?.judged_as, detected?.definition, detected?.errors], [kind, definition, []], `${name}, detected, ${mode}`);
      t.ok(detected?.detected_by?.length, "detection names the members that told");
      t.equal(validateText(text, mode, "envelope")[0]?.errors[0]?.message, 'required member "type" is missing', `${name}: as an envelope, as before`);
    }
  }
});

t.test("a broken copy of a golden frame is invalid at the right path", async (t) => {
  const frame = JSON.parse(upstream("context-frame.compact.valid.json")) as Record<string, unknown>;
  const { citation_label: _, ...unlabelled } = frame;
  t.same(verdicts(validateText(JSON.stringify(unlabelled), "lint", "frame")), [["frame", "#/$defs/ContextFrame", ["/citation_label required"]]]);
  const [undetected] = validateText(JSON.stringify(unlabelled), "lint");
  t.same(
    [undetected?.judged_as, undetected?.errors.map((e) => e.instancePath), undetected?.could_be],
    ["envelope", ["/type"], []],
    "no longer a frame's shape: type missing, as before, with nothing it could be",
  );
  const offset = JSON.stringify({ ...frame, recorded_at: "2026-07-21T12:34:56+00:00" });
  for (const as of ["frame", undefined])
    t.same(verdicts(validateText(offset, "interop", as)), [["frame", "#/$defs/ContextFrame", ["/recorded_at pattern"]]], `a +00:00 timestamp, --as ${as}`);
  const map = validateText(upstream("context-frame.missing-citation.invalid.json"), "lint", "frame")[0]?.errors.map((e) => `${e.instancePath} ${e.keyword}`);
  t.ok(
    map?.includes("/missing additionalProperties") && map.includes("/blank additionalProperties"),
    "the upstream invalid fixture is a map of two frames, not a frame",
  );
  const { missing, blank } = JSON.parse(upstream("context-frame.missing-citation.invalid.json")) as Record<string, unknown>;
  t.same(
    validateText(JSON.stringify(missing), "lint", "frame")[0]?.errors.map((e) => e.instancePath),
    ["/citation_label"],
  );
  // F3 says "non-empty", which " \t " is; the schema holds it to that and no further.
  t.same(validateText(JSON.stringify(blank), "lint", "frame")[0]?.errors, []);
});

t.test("the upstream strict cases: lint rejects each unknown member where it is, interop ignores it (U1)", async (t) => {
  // The cases were written against the upstream digest profile: two also lack a member this schema requires
  // (a file provenance link's digest, F5; a relation's display_name, G1), reported in both modes.
  const strict = cases("strict-validation.invalid.json", "input");
  const targets = (JSON.parse(upstream("strict-validation.invalid.json")) as { cases: Array<{ target: string; unknown_path: string }> }).cases;
  for (const [i, { name, value }] of strict.entries()) {
    const as = targets[i]!.target === "frame" ? "frame" : "context-query";
    const pointer = targets[i]!.unknown_path.replace(/^(frame|query)/, "")
      .replace(/\[(\d+)\]/g, "/$1")
      .replace(/\./g, "/");
    const lint = validateText(JSON.stringify(value), "lint", as)[0]!.errors.map((e) => e.instancePath);
    const interop = validateText(JSON.stringify(value), "interop", as)[0]!.errors.map((e) => e.instancePath);
    t.same(
      lint.filter((p) => !interop.includes(p)),
      [pointer],
      `${name}: lint alone rejects ${pointer}`,
    );
    t.notOk(interop.includes(pointer), `${name}: interop ignores it`);
  }
});

t.test("a wrong --as is invalid", async (t) => {
  const frame = upstream("context-frame.reference.valid.json");
  t.same(
    validateText(frame, "interop", "context-query")[0]?.errors.map((e) => e.instancePath),
    ["/goal", "/max_frames", "/max_tokens"],
  );
  const asFrames = validateText(frame, "interop", "frames")[0];
  t.equal(asFrames?.definition, "#/$defs/Frames");
  t.same(
    asFrames?.errors.map((e) => e.instancePath),
    ["/type", "/result"],
  );
  t.same(
    validateText('{"type":"shutdown"}', "lint", "handshake")[0]?.errors.map((e) => `${e.instancePath} ${e.message}`),
    ['/protocol_version required member "protocol_version" is missing', '/type must be "handshake"'],
    "an envelope given another envelope's type is judged by that branch",
  );
  t.same(validateText("[1]", "lint", "frame")[0]?.errors, [
    { instancePath: "", keyword: "type", message: "must be a JSON object", schemaPath: "#/$defs/ContextFrame/type" },
  ]);
});

t.test("detection: only an unambiguous document without type", async (t) => {
  const frame = { id: "f", kind: "doc", title: "T", content: "c", score: 0.5, token_cost: 1, citation_label: "L" };
  const one = (doc: unknown) => validateText(JSON.stringify(doc), "lint")[0]!;
  t.same(one(frame).detected_by, ["id", "kind", "title", "score", "citation_label"]);
  t.same(one({ provider_id: "p", frame_id: "f" }).judged_as, "frame-id");
  const ambiguous = one({ provider_id: "p", frame_id: "f", uri: "u" });
  t.same([ambiguous.judged_as, ambiguous.errors.map((e) => e.instancePath), ambiguous.could_be], ["envelope", ["/type"], ["frame-id", "content-ref"]]);
  t.same(
    one({ query: { kinds: ["doc"] } }).could_be,
    ["capabilities", "query"],
    "it may be a query envelope that forgot its type: never taken for a Capabilities object",
  );
  t.same(one({ frame: { provider_id: "p", frame_id: "f" }, status: "valid" }).could_be, ["verdict", "frame-attestation"]);
  for (const type of ["frame", "bogus", 7]) {
    const r = one({ ...frame, type });
    t.same(
      [r.judged_as, r.detected_by, r.could_be, r.errors.length > 0],
      ["envelope", undefined, undefined, true],
      `a type member (${JSON.stringify(type)}) keeps it an envelope`,
    );
  }
  t.same(one({ type: "shutdown" }).definition, "#/$defs/Shutdown");
  t.same(one({ type: "frame" }).definition, undefined, "an unknown type names no branch, though a kind shares its name");
  t.same(validateText(JSON.stringify(frame), "lint", "envelope")[0]?.judged_as, "envelope", "--as envelope: no detection");
});
