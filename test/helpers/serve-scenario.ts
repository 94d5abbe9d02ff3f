/**
 * The reference host's own tests: each provider of a scenario served over
 * HTTP in this process, and the JSON lines a host wrote to a file.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { scenario } from "../../src/reference/scenarios.ts";
import { lineProvider } from "../../src/reference/serve.ts";
import type { Obj } from "../../src/protocol/envelope.ts";
import type { ScenarioName } from "../../src/protocol/host-scenarios.ts";

/** The JSON lines of a file a host appended to (none where it wrote none). */
export const lines = (p: string): Obj[] =>
  (existsSync(p) ? readFileSync(p, "utf8") : "")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Obj);

/** Each provider of a scenario over HTTP, in this process. */
export async function serveScenario(name: ScenarioName, count: number) {
  const servers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const lp = lineProvider(scenario(name, { token: "t", nonce: "n" }, i).provider);
      const server = createServer((req, res) => {
        let body = "";
        req.setEncoding("utf8");
        req.on("data", (c: string) => (body += c));
        req.on("end", () => {
          const { lines } = lp.receive(body);
          if (lines.length === 0) res.writeHead(204).end();
          else res.writeHead(200, { "content-type": "application/json" }).end(lines[0]);
        });
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
    }),
  );
  return {
    urls: servers.map((s) => s.url),
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => (s.server.close(() => r()), s.server.closeAllConnections())))),
  };
}
