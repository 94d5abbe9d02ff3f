/**
 * A kept-alive connection the provider closed races the next request: that
 * request is reset before any answer and is sent again on a fresh
 * connection. A reset on a fresh connection is the provider's, and is told.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import t from "tap";
import { HttpConnection } from "../../src/target/http.ts";
import { openHttp } from "../../src/reference/host-http.ts";

/** A server that answers the first request on each connection and resets any later one (`fresh`: resets every request). */
async function server(fresh = false): Promise<{ url: string; seen: () => number; close: () => Promise<void> }> {
  const served = new WeakMap<Socket, number>();
  let seen = 0;
  const s: Server = createServer({ keepAlive: true }, (req, res) => {
    seen++;
    const n = served.get(req.socket) ?? 0;
    served.set(req.socket, n + 1);
    if (fresh || n > 0) return void req.socket.destroy();
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ type: "ack", n: seen }));
    });
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cgp`,
    seen: () => seen,
    close: () =>
      new Promise((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

function connect(url: string) {
  const lines: string[] = [];
  const unreachable: string[] = [];
  const unsent: (string | undefined)[] = [];
  const resent: number[] = [];
  let answered: () => void = () => {};
  const conn = new HttpConnection(
    { kind: "http", url, headers: {} },
    { maxLineBytes: 1 << 20, maxStderrBytes: 1 << 16 },
    {
      line: (c) => {
        lines.push(c.text);
        answered();
      },
      stderr: () => {},
      resent: (k) => resent.push(k),
      eof: () => {},
      exit: () => {},
      unreachable: (_k, m) => {
        unreachable.push(m);
        answered();
      },
    },
  );
  const send = (text: string) =>
    new Promise<void>((r) => {
      answered = r;
      conn.write(text, (why) => unsent.push(why));
    });
  return { conn, lines, unreachable, unsent, resent, send };
}

t.test("the tester's client sends a request again when its kept-alive connection was closed under it", async (t) => {
  const s = await server();
  t.teardown(s.close);
  const c = connect(s.url);
  await c.send('{"type":"one"}');
  await c.send('{"type":"two"}');
  c.conn.kill();
  await c.conn.done;
  t.equal(c.lines.length, 2, "both requests answered");
  t.same(c.unreachable, [], "no reset reported");
  t.equal(s.seen(), 3, "the second request was reset once on the kept-alive connection, then answered on a fresh one");
  t.same(c.resent, [2], "and the resend is told, for the transcript");
});

t.test("the tester's client reports a reset on a fresh connection, and does not send it again", async (t) => {
  const s = await server(true);
  t.teardown(s.close);
  const c = connect(s.url);
  await c.send('{"type":"one"}');
  c.conn.kill();
  await c.conn.done;
  t.equal(c.lines.length, 0);
  t.equal(c.unreachable.length, 1, "the reset is told");
  t.match(c.unreachable[0], /cannot reach the provider|stopped answering/);
  t.equal(s.seen(), 1, "sent once");
  t.same(c.resent, [], "nothing resent");
});

t.test("the reference host's client does the same", async (t) => {
  const s = await server();
  t.teardown(s.close);
  const ch = openHttp(s.url, undefined);
  ch.send('{"type":"one"}');
  t.match(await ch.next(5000), { kind: "line", status: 200 });
  ch.send('{"type":"two"}');
  t.match(await ch.next(5000), { kind: "line", status: 200 }, "answered after the reset, not dropped");
  await ch.close(100);
  t.equal(s.seen(), 3);

  const f = await server(true);
  t.teardown(f.close);
  const fc = openHttp(f.url, undefined);
  fc.send('{"type":"one"}');
  t.match(await fc.next(5000), { kind: "end" }, "a fresh connection reset is the provider's drop");
  await fc.close(100);
  t.equal(f.seen(), 1);
});
