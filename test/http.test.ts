import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { TEST_CERT } from "../src/reference/tls.ts";
import { cgp, cli, ROOT } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-http-"));
const TOKEN = "tok-3f9c1e-SECRET-value";

/** The reference provider over HTTP on loopback; resolves with its URL and a stop function. */
async function httpFixture(args: string[] = []): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = cgp(["fixture", "--attest", "--http", "0", ...args], { cwd: ROOT, reject: false, buffer: false, stdout: "pipe", stderr: "ignore" });
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
  // The environment cannot turn certificate checks off: the transport asks for them explicitly.
  const off = await cli(["http", f.url, "--json"], { env: { NODE_TLS_REJECT_UNAUTHORIZED: "0" } });
  t.equal(off.exitCode, 3, "NODE_TLS_REJECT_UNAUTHORIZED=0 does not make a self-signed server trusted");
  t.equal(JSON.parse(off.stdout).conformant, false);
});

/** Every way a hostile provider can echo a credential back: verbatim, JSON-escaped, cut, markdown-special, percent-encoded. */
function echoes(secret: string): string[] {
  const u = [...secret].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
  return [
    secret,
    u,
    `${secret.slice(0, 5)}\\u${secret.charCodeAt(5).toString(16).padStart(4, "0")}${secret.slice(6)}`,
    `*_${secret}_*`,
    encodeURIComponent(secret),
    `${"x".repeat(50)}${secret}`,
  ];
}

/** A provider that answers every request, echoing the credentials it was sent in every field it can. */
async function echoing(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const creds = [String(req.headers.authorization ?? "").replace(/^Bearer /, ""), String(req.headers["x-api-key"] ?? "")];
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let env: { type?: string; id?: string } = {};
      try {
        env = JSON.parse(body) as typeof env;
      } catch {
        // a malformed stimulus: answered like any other request
      }
      const forms = creds.flatMap(echoes);
      // The escapes are raw JSON text: spliced into the body, they reach the transcript as the provider wrote them.
      const raw = (i: number): string => `"${forms[i % forms.length]!.replace(/"/g, '\\"')}"`;
      const text =
        env.type === "handshake"
          ? `{"type":"handshake_ack","protocol_version":"contextgraph/1.0","provider":{"name":${raw(0)},"version":${raw(1)},"data_flow":{"reads":true,"writes":false,"egress":false}},"capabilities":{"query":{"kinds":[${forms.map((_, i) => raw(i)).join(",")}]},"correlation":true}}`
          : `{"type":"error",${env.id !== undefined ? `"id":${JSON.stringify(env.id)},` : ""}"code":${raw(2)},"message":${raw(3)}}`;
      res.writeHead(200, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

t.test("C8: credentials echoed back in every form reach no output, in any format, nor a replay without them", async (t) => {
  const e = await echoing();
  t.teardown(e.close);
  const KEY = "key-91b2c7d4e5f6a7b8-api";
  const dir = mkdtempSync(join(tmp, "echo-"));
  const transcript = join(dir, "t.ndjson");
  const summary = join(dir, "summary.md");
  writeFileSync(summary, "");
  const env = { CGP_TOKEN: TOKEN, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
  const reports = ["json", "junit", "tap", "markdown", "github", "html"].map((f) => `${f}:${join(dir, `r.${f}`)}`);
  const run = await cli(
    [
      "http",
      e.url,
      "--bearer-token-env",
      "CGP_TOKEN",
      "--header",
      `X-Api-Key: ${KEY}`,
      "--verbose",
      "--transcript",
      transcript,
      ...reports.flatMap((r) => ["--report", r]),
    ],
    { env },
  );
  t.equal(run.exitCode, 1, run.stderr.slice(-300));
  const replay = await cli(["replay", transcript, "--verbose"]);
  const replayJson = await cli(["replay", transcript, "--json"]);
  // Without --transcript a failing run keeps one unasked: that file, and a replay of it, are outputs too.
  const unasked = await cli(["http", e.url, "--bearer-token-env", "CGP_TOKEN", "--header", `X-Api-Key: ${KEY}`], { env });
  const kept = /transcript \(the lines the evidence cites\): (\S+)/.exec(unasked.stdout)?.[1];
  t.ok(kept, "the unasked run kept its transcript");
  const keptReplay = await cli(["replay", kept!, "--verbose"]);
  const outputs = [
    run.stdout,
    run.stderr,
    replay.stdout,
    replay.stderr,
    replayJson.stdout,
    unasked.stdout,
    unasked.stderr,
    readFileSync(kept!, "utf8"),
    keptReplay.stdout,
    ...readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8")),
  ];
  t.ok(readFileSync(kept!, "utf8").includes("[redacted]"), "the kept transcript holds the echoes, redacted");
  t.ok(readFileSync(transcript, "utf8").includes("[redacted]"), "the echoes were recorded, redacted");
  for (const secret of [TOKEN, KEY]) {
    const fragments = Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
    for (const [i, o] of outputs.entries()) {
      const decoded = o.replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, "$1");
      const hit = fragments.find((f) => o.includes(f) || decoded.includes(f) || decodeURIComponentSafe(o).includes(f));
      if (hit) writeFileSync(`/tmp/leak-${i}.txt`, o);
      t.notOk(hit, `output ${i} holds no 8-character piece of ${secret === TOKEN ? "the token" : "the api key"}${hit ? ` (found ${hit})` : ""}`);
    }
  }
});

function decodeURIComponentSafe(s: string): string {
  return s.replace(/(%[0-9a-f]{2})+/gi, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
}

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
  const r = await cli(["reference", "--misbehave", mode, "--json", "--timeout", "20000", "--transcript", transcript]);
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

  const granted = JSON.parse((await cli(["reference", "--misbehave", mode, "--json", "--timeout", "20000", "--consent", "third-party-model"])).stdout);
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

t.test("a provider that answers the first handshake, then HTTP 429 with an empty body: named at once, no internal error", async (t) => {
  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      if (requests++ > 0) return void res.writeHead(429).end();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          type: "handshake_ack",
          protocol_version: "contextgraph/1.0",
          provider: { name: "busy", version: "1", data_flow: { reads: false, writes: false, egress: false } },
          capabilities: { query: { kinds: [] } },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  t.teardown(() => server.close());
  const started = Date.now();
  const r = await cli(["http", `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, "--json", "--timeout", "20000"]);
  t.ok(Date.now() - started < 15_000, "no request waited out its 20 s timeout");
  t.notMatch(r.stderr, /internal error|    at /);
  const report = JSON.parse(r.stdout);
  t.equal(report.results.length, 41);
  t.match(JSON.stringify(report.results), /the provider answered HTTP 429 with an empty body/);
});
