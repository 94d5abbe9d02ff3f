/**
 * A TLS scenario provider tells the host's failed handshakes by the connection's close. That close can come
 * just after the host exits, so the scenario waits for it (idle), and a connection still unsecured when the
 * scenario ends is noted as well: neither is lost to the order in which the two arrive.
 */
import { connect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import t from "tap";
import { serverCertificate } from "../../src/host/peer.ts";
import { runSecrets } from "../../src/host/secrets.ts";
import { serveHttp } from "../../src/host/serve-http.ts";
import { Recorder } from "../../src/host/session.ts";

const ADDR = "127.0.0.1";

async function served() {
  const rec = new Recorder();
  rec.begin("non-loopback-tls");
  const s = await serveHttp("non-loopback-tls", runSecrets(), rec, 0, 1, { address: ADDR, tls: await serverCertificate(ADDR) });
  const port = Number(new URL(s.values.url as string).port);
  const tlsNotes = () => rec.events.filter((e) => e.note === "tls-failed");
  return { rec, s, port, tlsNotes };
}

t.test("a connection closed before its handshake is noted, and idle waits for that close", async (t) => {
  const { s, port, tlsNotes } = await served();
  const sock = connect(port, ADDR);
  await new Promise((r) => sock.once("connect", r));
  await new Promise((r) => setTimeout(r, 50));
  let idle = false;
  const waited = s.idle().then(() => (idle = true));
  await new Promise((r) => setTimeout(r, 50));
  t.equal(idle, false, "idle waits while a connection is open with no handshake done");
  sock.destroy();
  await waited;
  t.equal(tlsNotes().length, 1, "its close is one tls-failed note");
  t.match(tlsNotes()[0]?.reason, /closed before its TLS handshake completed/);
  await s.close();
  t.equal(tlsNotes().length, 1, "and closing the server adds none");
});

t.test("a connection still unsecured when the scenario ends is noted at close", async (t) => {
  const { s, port, tlsNotes } = await served();
  const sock = connect(port, ADDR);
  sock.on("error", () => {});
  await new Promise((r) => sock.once("connect", r));
  await new Promise((r) => setTimeout(r, 50));
  await s.close();
  sock.destroy();
  t.equal(tlsNotes().length, 1, "one note");
  t.match(tlsNotes()[0]?.reason, /1 connection\(s\) the host opened were still open, their TLS handshake not completed/);
});

t.test("a handshake that completes is no failure, and idle does not wait on it", async (t) => {
  const { s, port, tlsNotes } = await served();
  const sock = tlsConnect({ port, host: ADDR, rejectUnauthorized: false });
  await new Promise((r) => sock.once("secureConnect", r));
  await new Promise((r) => setTimeout(r, 50));
  await s.idle();
  sock.destroy();
  await new Promise((r) => setTimeout(r, 50));
  await s.close();
  t.equal(tlsNotes().length, 0, "no tls-failed note");
});
