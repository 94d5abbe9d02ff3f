import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { TEST_CERT } from "../fixtures/tls.ts";
import { BUN, CLI, cli, ROOT } from "./helpers/live.ts";
import { execa } from "execa";

const tmp = mkdtempSync(join(tmpdir(), "cgp-http-"));
const TOKEN = "tok-3f9c1e-SECRET-value";

/** The reference provider over HTTP on loopback; resolves with its URL and a stop function. */
async function httpFixture(args: string[] = []): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = execa(BUN, [CLI, "fixture", "--attest", "--http", "0", ...args], { cwd: ROOT, reject: false, buffer: false, stdout: "pipe", stderr: "ignore" });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (c: Buffer) => resolve(c.toString().trim())));
  return { url, stop: async () => void (child.kill(), await child) };
}

/** A provider that answers only requests bearing the token: proof the header is attached. */
async function guarded(): Promise<{ url: string; seen: string[]; close: () => void }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.headers.authorization ?? "");
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const env = JSON.parse(body) as { type: string };
      if (env.type !== "handshake") return void res.writeHead(204).end();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          type: "handshake_ack",
          protocol_version: "contextgraph/1.0",
          provider: { name: "guarded", version: "1", data_flow: { reads: false, writes: false, egress: false } },
          capabilities: { query: { kinds: [] } },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen, close: () => server.close() };
}

t.test("the reference provider over plain HTTP on loopback is conformant", async (t) => {
  const f = await httpFixture();
  t.teardown(f.stop);
  const r = await cli(["http", f.url, "--json"]);
  t.equal(r.exitCode, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  t.same(report.target, { kind: "http", url: f.url });
  t.match(report.results.find((x: { id: string }) => x.id === "R2").reason, /stdio only/);
});

t.test("HTTPS with --ca trusts the test certificate; without it the provider cannot be reached", async (t) => {
  const f = await httpFixture(["--tls"]);
  t.teardown(f.stop);
  const ca = join(tmp, "ca.pem");
  writeFileSync(ca, TEST_CERT);
  const ok = await cli(["http", f.url, "--ca", ca]);
  t.equal(ok.exitCode, 0, ok.stdout.slice(-400));
  t.match(f.url, /^https:/);
  const untrusted = await cli(["http", f.url, "--json"]);
  t.equal(untrusted.exitCode, 3);
  t.match(JSON.parse(untrusted.stdout).could_not_run_reason, /could not be reached: cannot reach the provider: .*(self.signed|certificate)/i);
});

t.test("C7: plain http to a non-loopback host: exit 3 before anything is sent", async (t) => {
  const r = await cli(["http", "http://provider.invalid/cgp"]);
  t.equal(r.exitCode, 3);
  t.match(r.stderr, /C7/);
  t.equal(r.stdout, "");
});

t.test("C8: the bearer token is sent, and appears in no output", async (t) => {
  const g = await guarded();
  t.teardown(g.close);
  const transcript = join(tmp, "c8.ndjson");
  const outDir = mkdtempSync(join(tmp, "reports-"));
  const env = { CGP_TOKEN: TOKEN };
  const runs = [
    await cli(["http", g.url, "--bearer-token-env", "CGP_TOKEN", "--only", "H1,H2", "--transcript", transcript, "--verbose"], { env }),
    await cli(["http", g.url, "--bearer-token-env", "CGP_TOKEN", "--only", "H1,H2", "--json"], { env }),
    // An unreachable provider: the error path must not carry it either.
    await cli(["http", "http://127.0.0.1:9/", "--bearer-token-env", "CGP_TOKEN", "--json"], { env }),
    await cli(["http", g.url, "--bearer-token-env", "CGP_TOKEN", "--header", "x-trace:1", "--only", "H1"], { env }),
  ];
  t.equal(runs[0]!.exitCode, 0, runs[0]!.stdout);
  t.ok(g.seen.length > 0 && g.seen.every((h) => h === `Bearer ${TOKEN}`), "every request carried the token");
  t.equal(runs[2]!.exitCode, 3);
  const outputs = [
    ...runs.flatMap((r) => [r.stdout, r.stderr]),
    readFileSync(transcript, "utf8"),
    ...readdirSync(outDir).map((f) => readFileSync(join(outDir, f), "utf8")),
  ];
  for (const o of outputs) t.notOk(o.includes(TOKEN) || o.includes("SECRET"), "no output holds the token");
  const missing = await cli(["http", g.url, "--bearer-token-env", "NOT_SET_ANYWHERE"]);
  t.equal(missing.exitCode, 2);
  t.match(missing.stderr, /NOT_SET_ANYWHERE: that environment variable is not set/);
  const viaHeader = await cli(["http", g.url, "--header", `Authorization: Bearer ${TOKEN}`]);
  t.equal(viaHeader.exitCode, 2, "credentials are refused on the command line");
  t.notMatch(viaHeader.stderr, TOKEN);
});

t.test("C1/C2/C6: a provider needing consent gets no query without it; with it, receipts", async (t) => {
  const transcript = join(tmp, "consent.ndjson");
  const mode = "C5-local-posture-offmachine-scope"; // declares the third-party-model scope
  const r = await cli(["reference", "--misbehave", mode, "--json", "--transcript", transcript]);
  t.equal(r.exitCode, 3, "could not run fully");
  const report = JSON.parse(r.stdout);
  t.same(report.consent.missing, ["third-party-model"]);
  t.match(
    report.could_not_run_reason,
    /consent is required for third-party-model: the provider declares off-machine egress scopes third-party-model \(C6\); no query payload was sent/,
  );
  const sent = readFileSync(transcript, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.dir === "send")
    .map((e) => {
      try {
        return JSON.parse(e.line) as { type?: string };
      } catch {
        return undefined; // a malformed-input stimulus
      }
    });
  t.notOk(
    sent.some((e) => e?.type === "query" || e?.type === "verify"),
    "no query or verify was sent",
  );
  t.equal(report.results.find((x: { id: string }) => x.id === "C5").status, "fail", "handshake-level checks still report");
  t.ok(report.results.filter((x: { status: string }) => x.status === "pass").length > 0, "not a run made of skips");

  const granted = JSON.parse((await cli(["reference", "--misbehave", mode, "--json", "--consent", "third-party-model"])).stdout);
  t.same(granted.consent.missing, []);
  t.equal(granted.consent.receipts.length, 1);
  t.match(granted.consent.receipts[0], {
    provider_id: "cgp-conform-reference",
    scope: "third-party-model",
    provider_name: "cgp-conform-reference",
    provider_version: "0.1.0",
    grantor: { policy: "cgp-conform --consent third-party-model" },
  });
  t.match(granted.consent.receipts[0].granted_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});
