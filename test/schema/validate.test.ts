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
  t.same(validateText('{"type":"shutdown"}', "lint"), [{ index: 0, line: 1, type: "shutdown", errors: [] }]);
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
  const text = readFileSync(new URL("../reference/full-stdio-session.ndjson", import.meta.url), "utf8");
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
