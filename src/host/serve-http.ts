/**
 * A scenario provider served to a host over HTTP: on loopback, or (the
 * scenarios that need a non-loopback peer) on the --listen address, in plain
 * HTTP or over TLS with a certificate of the run's authority. Each request is
 * recorded with the Authorization it carried; a scenario that requires the
 * run's token refuses one without it (401), and a TLS connection that closed
 * before its handshake completed is noted (C4 asks whether the host trusted
 * the run's CA).
 */
import type { Socket } from "node:net";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { RunSecrets } from "../reference/scenarios.ts";
import { PROVIDER_PLACEHOLDERS, type ScenarioName } from "../protocol/host-scenarios.ts";
import { redact } from "../secret/redact.ts";
import type { HostEvent } from "../transcript/host.ts";
import { MAX_LINE_BYTES, Session, type Recorder, type Served } from "./session.ts";
import { urlHost, type KeyPair } from "./peer.ts";

/** Where an HTTP scenario is served off loopback: the --listen address, over TLS with this certificate or in plain HTTP. */
export interface Peer {
  address: string;
  tls?: KeyPair;
}

/** Serve a scenario (its `index`-th provider, of `count`) over HTTP, on loopback or on the --listen address. */
export async function serveHttp(name: ScenarioName, secrets: RunSecrets, rec: Recorder, index = 0, count = 1, peer?: Peer): Promise<Served> {
  const session = new Session(name, secrets, rec, true, index, count);
  const tag = session.tag;
  const held = new Set<ServerResponse>();
  let first = true;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (first) rec.note({ note: "connected", reason: `the host made its first request to ${PROVIDER_PLACEHOLDERS.http[index]}`, ...tag });
    first = false;
    const header = req.headers.authorization;
    const auth: HostEvent["auth"] = header === undefined ? "none" : header === `Bearer ${secrets.token}` ? "run-token" : "other";
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_LINE_BYTES) chunks.push(c);
    });
    req.on("end", () => {
      if (size > MAX_LINE_BYTES) {
        rec.push({ dir: "host", line: redact(Buffer.concat(chunks).subarray(0, 4096).toString("utf8")), bytes: size, overLong: true, auth, ...tag });
        res.writeHead(413).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      if (session.s.requireToken && auth !== "run-token") {
        rec.push({ dir: "host", line: redact(body), bytes: size, auth, ...tag });
        rec.note({
          note: "unauthorized",
          reason: `refused with 401: the request's Authorization header ${auth === "none" ? "was absent" : "did not carry the run's bearer token"}`,
          ...tag,
        });
        res.writeHead(401, { "www-authenticate": "Bearer" }).end();
        return;
      }
      const r = session.receive(body, { auth });
      if (r.crash) {
        rec.note({ note: "dropped", reason: "the scenario crashed mid-query: the connection was dropped without an answer", ...tag });
        req.socket.destroy();
        return;
      }
      if (r.withhold) {
        held.add(res);
        return;
      }
      const reply = r.lines[0];
      if (reply === undefined) res.writeHead(204).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(reply);
    });
  };
  const server = peer?.tls ? createHttpsServer({ cert: peer.tls.cert, key: peer.tls.key }, handler) : createHttpServer(handler);
  let ending = false;
  // Connections whose TLS handshake has not completed, still open: the scenario waits for them to close before it ends (their close is
  // how a failed handshake is told, and it can arrive just after the host exits), and one still open when it ends is noted as failed.
  const unsecured = new Map<string, Socket>();
  let settled: (() => void) | undefined;
  const tlsFailed = (reason: string): void => rec.note({ note: "tls-failed", reason, ...tag });
  if (peer?.tls) {
    // A connection that closed before its TLS handshake completed: the host did not trust the run's CA, or spoke plain HTTP to TLS, so
    // the provider C4 asks about never reached it. Told by the close, as Bun's server emits no tlsClientError; sockets are matched by
    // their remote port, since Node hands secureConnection a TLS socket apart from the one connection gave.
    const peerOf = (sock: { remoteAddress?: string | undefined; remotePort?: number | undefined }): string => `${sock.remoteAddress}:${sock.remotePort}`;
    const done = (from: string): void => {
      unsecured.delete(from);
      if (unsecured.size === 0) settled?.();
    };
    server.on("secureConnection", (sock) => done(peerOf(sock)));
    server.on("connection", (sock: Socket) => {
      const from = peerOf(sock);
      unsecured.set(from, sock);
      sock.once("close", () => {
        if (!ending && unsecured.has(from)) tlsFailed("a connection the host opened closed before its TLS handshake completed");
        done(from);
      });
    });
  }
  const address = peer?.address ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, address, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `${peer?.tls ? "https" : "http"}://${urlHost(address)}:${port}/`;
  if (peer) rec.note({ note: "listening", url, reason: `the scenario provider is served on ${url}, not on loopback`, ...tag });
  return {
    values: { url },
    idle: () => (unsecured.size === 0 ? Promise.resolve() : new Promise<void>((r) => (settled = r))),
    close: () =>
      new Promise<void>((resolve) => {
        if (unsecured.size > 0)
          tlsFailed(`${unsecured.size} connection(s) the host opened were still open, their TLS handshake not completed, when the scenario ended`);
        ending = true;
        for (const r of held) r.destroy();
        // The HTTP server's closeAllConnections does not reach a socket still in its TLS handshake: without this, close would wait on it.
        for (const sock of unsecured.values()) sock.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
