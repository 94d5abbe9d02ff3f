/**
 * `cgp-conform scenario-provider --socket PATH`: what a host under test
 * spawns as its provider ({provider}). It carries bytes and nothing else:
 * its stdin to cgp-conform over a Unix socket (in a directory only this
 * user can enter), and what cgp-conform answers to its stdout, so the
 * scenario provider itself runs, and is recorded, inside cgp-conform with
 * one clock. Both directions are JSON lines:
 *   relay → cgp-conform: {"in": base64 of a stdin chunk} | {"eof": true}
 *   cgp-conform → relay: {"out": a line to write} | {"raw": text without a newline} | {"exit": status}
 * If the socket closes without an exit, the relay ends with status 1: a
 * provider whose other half is gone is a provider that died.
 */
import { connect } from "node:net";

export const RELAY_COMMAND = "scenario-provider";

export type ToRelay = { out: string } | { raw: string } | { exit: number };
export type FromRelay = { in: string } | { eof: true };

export function relay(socketPath: string): Promise<number> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number): void => {
      if (done) return;
      done = true;
      process.stdin.destroy();
      // An empty write completes after everything queued before it.
      process.stdout.write("", () => resolve(code));
    };
    const sock = connect(socketPath);
    sock.on("error", (e) => {
      process.stderr.write(`cgp-conform scenario-provider: cannot reach cgp-conform at ${socketPath}: ${e.message}\n`);
      finish(70);
    });
    sock.on("connect", () => {
      process.stdin.on("data", (c: Buffer) => {
        // At most 256 KiB a line: cgp-conform refuses a line from a relay past a few MiB.
        for (let at = 0; at < c.length; at += 256 * 1024)
          sock.write(JSON.stringify({ in: c.subarray(at, at + 256 * 1024).toString("base64") } satisfies FromRelay) + "\n");
      });
      process.stdin.on("end", () => sock.write(JSON.stringify({ eof: true } satisfies FromRelay) + "\n"));
      process.stdin.on("error", () => sock.write(JSON.stringify({ eof: true } satisfies FromRelay) + "\n"));
    });
    let buf = "";
    sock.setEncoding("utf8");
    sock.on("data", (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m: ToRelay;
        try {
          m = JSON.parse(line) as ToRelay;
        } catch {
          continue;
        }
        if ("out" in m) process.stdout.write(`${m.out}\n`);
        else if ("raw" in m) process.stdout.write(m.raw);
        else if ("exit" in m) {
          finish(m.exit);
          sock.destroy();
          return;
        }
      }
    });
    sock.on("close", () => finish(1));
    // A host that stops reading our stdout must not make us throw.
    process.stdout.on("error", () => finish(1));
  });
}
