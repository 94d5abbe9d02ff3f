/**
 * A scenario provider served to a host over stdio: the host starts the relay
 * ({provider} is `cgp-conform scenario-provider --socket PATH`), and each
 * relay connecting to the Unix socket here is one provider session. The
 * relay carries the host's input in base64 chunks and our output back as
 * lines (src/host/relay.ts); what each side says is recorded here, so the
 * relay's process, which the host owns and may kill, holds nothing of the
 * record.
 */
import { createServer as createNetServer, type Socket } from "node:net";
import { join } from "node:path";
import { HALF_LINE, type RunSecrets } from "../reference/scenarios.ts";
import { PROVIDER_PLACEHOLDERS, type ScenarioName } from "../protocol/host-scenarios.ts";
import { parseObj } from "../protocol/envelope.ts";
import { redact } from "../secret/redact.ts";
import { LineSplitter } from "../target/lines.ts";
import { selfCommand } from "../meta/self.ts";
import { MAX_LINE_BYTES, providerTag, Session, type Recorder, type Served } from "./session.ts";
import { RELAY_COMMAND, type FromRelay, type ToRelay } from "./relay.ts";

/** The longest line a relay sends (a base64 chunk of its stdin), with room to spare. */
const RELAY_LINE_MAX = 4 * 1024 * 1024;

/** Serve a scenario (its `index`-th provider, of `count`) to relays over a Unix socket in a private directory. */
export async function serveStdio(name: ScenarioName, secrets: RunSecrets, rec: Recorder, dir: string, index = 0, count = 1): Promise<Served> {
  const path = join(dir, index === 0 ? "p.sock" : `p${index + 1}.sock`);
  const tag = providerTag(index, count);
  const placeholder = PROVIDER_PLACEHOLDERS.stdio[index];
  const sockets = new Set<Socket>();
  let waiting: (() => void) | undefined;
  const server = createNetServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => {
      sockets.delete(sock);
      if (sockets.size === 0) waiting?.();
    });
    rec.note({ note: "connected", reason: `the host started ${placeholder}`, ...tag });
    const session = new Session(name, secrets, rec, false, index, count);
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    let ended = false;
    const send = (m: ToRelay): void => {
      if (!sock.destroyed) sock.write(JSON.stringify(m) + "\n");
    };
    const exit = (code: number, reason: string): void => {
      if (ended) return;
      ended = true;
      rec.note({ note: "provider-exit", exitCode: code, reason, ...tag });
      send({ exit: code });
    };
    const handle = (text: string, overLong: boolean, bytes: number): void => {
      if (ended) return;
      if (overLong) {
        rec.push({ dir: "host", line: redact(text), bytes, overLong: true, ...tag });
        return;
      }
      const r = session.receive(text);
      for (const l of r.lines) send({ out: l });
      if (r.crash) {
        rec.push({ dir: "provider", line: HALF_LINE, ...tag });
        send({ raw: HALF_LINE });
        exit(1, "the scenario crashed mid-query: half a line written, then exit status 1");
      } else if (r.exit !== undefined) exit(r.exit, "shutdown");
    };
    let buf = "";
    sock.setEncoding("utf8");
    sock.on("data", (chunk: string) => {
      buf += chunk;
      // The relay sends a line per chunk of at most 64 KiB; anything longer is not a relay talking.
      if (buf.length > RELAY_LINE_MAX && buf.indexOf("\n") === -1) {
        sock.destroy();
        return;
      }
      for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
        const m = parseObj(buf.slice(0, nl)) as FromRelay | undefined;
        buf = buf.slice(nl + 1);
        if (!m) continue;
        if ("in" in m && typeof m.in === "string") for (const c of splitter.push(Buffer.from(m.in, "base64"))) handle(c.text, c.overLong, c.bytes);
        else if ("eof" in m) {
          const rest = splitter.end();
          if (rest) handle(rest.text, rest.overLong, rest.bytes);
          if (ended) return;
          rec.note({ note: "eof", reason: "the host closed the provider's input", ...tag });
          // A wedged provider does not notice its input ending either.
          if (!session.silent) exit(0, "end of input");
        }
      }
    });
    sock.on("close", () => {
      if (!ended) rec.note({ note: "provider-exit", exitCode: null, reason: "the relay went away (the host ended or killed it)", ...tag });
      ended = true;
    });
    sock.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  return {
    values: { provider: [...selfCommand(), RELAY_COMMAND, "--socket", path] },
    idle: () => (sockets.size === 0 ? Promise.resolve() : new Promise<void>((r) => (waiting = r))),
    // Resolved once every relay's socket has closed, and its last note is in the record, as well as the server: the
    // server's close can come first, and the scenario's record is taken as soon as this resolves.
    close: async () => {
      const closed = [...sockets].map((s) => (s.closed ? Promise.resolve() : new Promise<void>((r) => s.once("close", () => r()))));
      for (const s of sockets) s.destroy();
      await Promise.all([...closed, new Promise<void>((resolve) => server.close(() => resolve()))]);
    },
  };
}
