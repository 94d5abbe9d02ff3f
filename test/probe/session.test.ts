import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t from "tap";
import { Session } from "../../src/probe/session.ts";
import type { RecordedEvent } from "../../src/probe/session-types.ts";
import { DEFAULTS } from "../../src/engine/defaults.ts";
import { BYTE_STIMULI, malformedLines, SHUTDOWN } from "../../src/protocol/probes.ts";
import type { LineProvider, Target } from "../../src/target/connection.ts";

function session(target: Target, timeoutMs = 400): Session {
  return new Session({ name: SHUTDOWN.name, probe: SHUTDOWN.name, target, limits: DEFAULTS.limits, timeoutMs, signal: new AbortController().signal });
}

const brief = (events: RecordedEvent[]) => events.map((e) => ({ dir: e.dir, note: e.note, step: e.step, seq: e.seq, line: e.line, reason: e.reason }));

/** A loopback server that answers nothing: each request it is sent stays open until the client gives up. */
async function mute(): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => requests.push(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, server };
}

t.test("HTTP: a request queued behind one never answered is recorded as not sent, with why", async (t) => {
  const m = await mute();
  t.teardown(() => {
    m.server.closeAllConnections();
    m.server.close();
  });
  const s = session({ kind: "http", url: m.url, headers: {} });
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  s.send("shutdown", { type: "shutdown" });
  t.equal(await s.reply(1), undefined, "nothing answers");
  await s.close();
  t.same(m.requests, ['{"type":"handshake","protocol_version":"contextgraph/1.0"}'], "only the first request reached the server");
  const rec = brief(s.events);
  t.match(rec, [
    { dir: "send", step: "handshake", seq: 1, line: /"handshake"/ },
    { dir: "note", note: "timeout" },
    { dir: "note", note: "unanswered", step: "handshake" },
    { dir: "note", note: "unsent", step: "shutdown", seq: 2, line: '{"type":"shutdown"}', reason: /the session ended before its turn/ },
  ]);
  t.equal(s.events.filter((e) => e.dir === "send").length, m.requests.length, "what the record calls sent is what the server received");
});

t.test("HTTP: a provider that cannot be reached was sent nothing", async (t) => {
  const m = await mute();
  const { port } = m.server.address() as AddressInfo;
  await new Promise<void>((r) => m.server.close(() => r()));
  const s = session({ kind: "http", url: `http://127.0.0.1:${port}/`, headers: {} });
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  s.send("shutdown", { type: "shutdown" });
  t.equal(await s.reply(1), undefined);
  await s.close();
  t.match(brief(s.events), [
    { dir: "note", note: "unsent", step: "handshake", seq: 1, reason: /^the request could not be written: connect ECONNREFUSED/ },
    { dir: "note", note: "connect-error", reason: /cannot reach the provider/ },
    { dir: "note", note: "unsent", step: "shutdown", seq: 2, reason: "an earlier request could not reach the provider" },
  ]);
  t.notOk(
    s.events.some((e) => e.dir === "send"),
    "no line is recorded as sent",
  );
});

t.test("stdio: a line written after the provider exited is recorded as not sent", async (t) => {
  const s = session({ kind: "stdio", command: [process.execPath, "-e", ""] });
  t.ok(await s.waitExit(5000), "the provider exits by itself");
  await new Promise((r) => setTimeout(r, 50));
  s.send("shutdown", { type: "shutdown" });
  await s.close();
  t.match(brief(s.events).at(-1), { dir: "note", note: "unsent", step: "shutdown", seq: 1, reason: /the provider had exited|stdin was closed/ });
  t.notOk(s.events.some((e) => e.dir === "send"));
});

t.test("in process: the same, and a line sent before the exit is a send", async (t) => {
  const provider: LineProvider = { banner: () => [], receive: () => ({ lines: [], exit: 0 }) };
  const s = session({ kind: "stdio", command: ["in-process"], inProcess: () => provider });
  s.send("shutdown", { type: "shutdown" });
  t.ok(await s.waitExit(1000), "the provider exits on its first line");
  s.send("shutdown", { type: "shutdown" });
  await s.close();
  const rec = brief(s.events).filter((e) => e.dir === "send" || e.note === "unsent");
  t.match(rec, [
    { dir: "send", seq: 1 },
    { dir: "note", note: "unsent", seq: 2, reason: "the provider had exited" },
  ]);
});

t.test("a line a probe chooses not to send is a note, not a write", async (t) => {
  const provider: LineProvider = { banner: () => [], receive: () => ({ lines: [] }) };
  const s = session({ kind: "stdio", command: ["in-process"], inProcess: () => provider });
  s.notSent("shutdown", { type: "shutdown" }, "not over this binding");
  t.equal(s.lastSeq, undefined, "no write was made");
  await s.close();
  t.match(brief(s.events)[0], { dir: "note", note: "unsent", step: "shutdown", seq: undefined, line: '{"type":"shutdown"}', reason: "not over this binding" });
});

/** A provider that answers each chunk of its stdin with the chunk's bytes, in hex. */
const ECHO = `process.stdin.on("data", (d) => process.stdout.write(JSON.stringify({ type: "error", code: "bad_request", hex: d.toString("hex") }) + "\\n"))`;

t.test("a line of bytes that are not UTF-8 goes out as those bytes, and is recorded exactly", async (t) => {
  t.test("stdio", async (t) => {
    const s = session({ kind: "stdio", command: [process.execPath, "-e", ECHO] }, 5000);
    s.send("bad-invalid-utf8", Uint8Array.of(0xff, 0xfe));
    const echo = await s.reply();
    await s.close();
    t.equal(echo?.hex, "fffe0a", "FF FE and the newline reached the provider's stdin");
    t.match(s.events[0], { dir: "send", line: "\uFFFD\uFFFD", line_hex: "fffe", seq: 1 });
  });
  t.test("HTTP", async (t) => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString("hex"));
        res.writeHead(400, { "content-type": "application/json" }).end('{"type":"error","code":"bad_request","message":"not UTF-8"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    t.teardown(() => server.close());
    const s = session({ kind: "http", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, headers: {} }, 5000);
    s.send("bad-invalid-utf8", Uint8Array.of(0xff, 0xfe));
    const reply = await s.reply();
    await s.close();
    t.same(bodies, ["fffe"], "the body is the two bytes, nothing more");
    t.equal(reply?.code, "bad_request");
    t.match(s.events[0], { dir: "send", line: "\uFFFD\uFFFD", line_hex: "fffe", seq: 1 });
  });
  t.test("in process: the provider is handed the bytes", async (t) => {
    const got: Array<string | Uint8Array> = [];
    const provider: LineProvider = { banner: () => [], receive: (l) => (got.push(l), { lines: [] }) };
    const s = session({ kind: "stdio", command: ["in-process"], inProcess: () => provider });
    s.send("bad-invalid-utf8", Uint8Array.of(0xff, 0xfe));
    s.send("bad-garbage", "text");
    await new Promise((r) => setImmediate(r));
    await s.close();
    t.same(got, [Uint8Array.of(0xff, 0xfe), "text"]);
  });
  t.test("bytes that are UTF-8 are recorded as their text", async (t) => {
    const provider: LineProvider = { banner: () => [], receive: () => ({ lines: [] }) };
    const s = session({ kind: "stdio", command: ["in-process"], inProcess: () => provider });
    s.send("bad-nul-byte", Buffer.from("a\u0000b\r", "utf8"));
    await s.close();
    t.same({ line: s.events[0]?.line, hex: s.events[0]?.line_hex }, { line: "a\u0000b\r", hex: undefined });
  });
});

t.test("C2: a query spelt as a raw line is still a query payload, withheld without consent", async (t) => {
  const ack = { type: "handshake_ack", protocol_version: "contextgraph/1.0", provider: { name: "p", version: "1" }, capabilities: {} };
  const got: Array<string | Uint8Array> = [];
  const provider: LineProvider = {
    banner: () => [],
    receive: (l) => (got.push(l), { lines: typeof l === "string" && l.includes("handshake") ? [JSON.stringify(ack)] : [] }),
  };
  const s = new Session({
    name: "malformed-bytes",
    probe: "malformed-bytes",
    target: { kind: "stdio", command: ["in-process"], inProcess: () => provider },
    limits: DEFAULTS.limits,
    timeoutMs: 1000,
    signal: new AbortController().signal,
    withhold: () => "consent is required for third-party-model",
  });
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  t.equal((await s.reply())?.type, "handshake_ack");
  const lines = malformedLines(true, BYTE_STIMULI);
  for (const st of lines.filter((x) => x.env?.type === "query"))
    t.throws(
      () => s.send(st.step, st.line),
      { name: "Error", message: "consent is required for third-party-model" },
      `${st.step}: withheld, however it is spelt`,
    );
  s.send("bad-invalid-utf8", lines.find((x) => x.step === "bad-invalid-utf8")!.line);
  await new Promise((r) => setImmediate(r));
  await s.close();
  t.same(
    got.slice(1).map((l) => (typeof l === "string" ? l : Buffer.from(l).toString("hex"))),
    ["fffe"],
    "only the line that carries no query went out",
  );
});

t.test("an exchange's deadline is measured on the session's clock: wall time that clock does not count does not end it", async (t) => {
  let at = 0;
  const clock = { now: () => at };
  const provider: LineProvider = { banner: () => [], receive: () => ({ lines: [] }) };
  const s = new Session({
    name: SHUTDOWN.name,
    probe: SHUTDOWN.name,
    target: { kind: "stdio", command: ["in-process"], inProcess: () => provider },
    limits: DEFAULTS.limits,
    timeoutMs: 20,
    signal: new AbortController().signal,
    clock,
  });
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  let ended = false;
  const read = s.reply().finally(() => (ended = true));
  // Four times the deadline in wall time, none of it on the session's clock (another session held the thread).
  await new Promise((r) => setTimeout(r, 80));
  t.notOk(ended, "still waiting: its clock has not reached the deadline");
  at = 20;
  t.equal(await read, undefined);
  t.match(brief(s.events).at(-2), { dir: "note", note: "timeout" });
  t.match(s.events.at(-1), { dir: "note", note: "unanswered", reply_to: 1, cause: { kind: "timeout", waited_ms: 20 } }, "the fate is a value");
  t.match(s.stalled, { why: "no reply within 20 ms", kind: "timeout" });
  await s.close();
});

t.test("an answer that had arrived when the deadline passed counts, though it was not yet read", async (t) => {
  // The in-process connection hands the line over, and the answer back, on a later turn of the event loop: with a
  // deadline of 0 it has passed before the answer is read, as when a held thread reads a pipe late.
  const codes = ["x", "y"];
  const provider: LineProvider = { banner: () => [], receive: () => ({ lines: [`{"type":"error","code":"${codes.shift()}"}`] }) };
  const s = session({ kind: "stdio", command: ["in-process"], inProcess: () => provider }, 0);
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  s.send("handshake", { type: "handshake", protocol_version: "contextgraph/1.0" });
  t.match(await s.reply(1), { type: "error", code: "x" }, "the answer that had arrived is read");
  t.match(await s.reply(2), { type: "error", code: "y" }, "so is the next one that had arrived with it");
  s.send("shutdown", { type: "shutdown" });
  await s.close();
  t.notOk(s.events.some((e) => e.note === "timeout"));
});
