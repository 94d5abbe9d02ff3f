/**
 * The reference host (src/reference/host.ts) and its misbehave modes
 * (misbehave/host/): the honest flow, its refusals, its deadlines, the
 * token it never prints, and that each mode changes what it claims to.
 * Providers are the reference provider, in this process over HTTP (what the
 * host sent is recorded), or as a process over stdio.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t, { type Test } from "tap";
import { consentOf, honestHost, runHost, STARTUP_DEADLINE_MS, type Bindings, type Held, type HostTarget, type RefHost } from "../src/reference/host.ts";
import { scenario } from "../src/reference/scenarios.ts";
import { error, honest, NAME, type Provider } from "../src/reference/provider.ts";
import { lineProvider } from "../src/reference/serve.ts";
import { hostFor, runReferenceHost, UnknownHostModeError } from "../misbehave/host/apply.ts";
import { HOST_MODES } from "../misbehave/host/index.ts";
import { HOST_CHECKS } from "../checks/host/index.ts";
import { isObj, parseObj, type Obj } from "../src/protocol/envelope.ts";
import { HOST_ENV, markersIn, OFF_MACHINE_SCOPES, UNHEARD_OF_CODE, UNKNOWN_ENVELOPE, UNKNOWN_KIND, UNKNOWN_REL } from "../src/protocol/host-scenarios.ts";
import { HOST_VERSION } from "../src/math/version.ts";
import { BUN, CLI } from "./helpers/live.ts";
import { runAuthority, serverCertificate } from "../src/host/peer.ts";

const TOKEN = "rh-tok-7c2d9e-SECRET";
const tmp = mkdtempSync(join(tmpdir(), "cgp-refhost-"));

/** A host whose output is kept, not printed. */
function captured(h: RefHost = honestHost, timeoutMs = 5000): { host: RefHost; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { host: { ...h, timeoutMs, print: (l) => void out.push(l), log: (l) => void err.push(l) }, out, err };
}

/** The reference provider with its ack changed. */
function withAck(change: (ack: Obj) => void, base: Provider = honest): Provider {
  return {
    ...base,
    ack() {
      const ack = structuredClone(base.ack.call(this));
      change(ack);
      return ack;
    },
  };
}

const lockStep = (p: Provider = honest): Provider =>
  withAck((a) => {
    const caps = a.capabilities as Obj;
    caps.correlation = false;
    caps.verify = false;
    delete caps.embeddings_fingerprint;
  }, p);

interface Served {
  url: string;
  /** Every request body, in order. */
  bodies: string[];
  auths: Array<string | undefined>;
  /** The envelopes among the bodies. */
  sent(type?: string): Obj[];
  close(): Promise<void>;
}

/** A provider over HTTP in this process, recording what the host sends. */
async function serve(p: Provider, opts: { token?: string; onQuery?: "drop" | "silent" } = {}): Promise<Served> {
  const lp = lineProvider(p);
  const bodies: string[] = [];
  const auths: Array<string | undefined> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      bodies.push(body);
      auths.push(req.headers.authorization);
      if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) return void res.writeHead(401).end();
      if (parseObj(body)?.type === "query" && opts.onQuery === "drop") return void req.socket.destroy();
      if (parseObj(body)?.type === "query" && opts.onQuery === "silent") return;
      const { lines } = lp.receive(body);
      if (lines.length === 0) return void res.writeHead(204).end();
      res.writeHead(200, { "content-type": "application/json" }).end(lines[0]);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    bodies,
    auths,
    sent: (type) => bodies.map((b) => parseObj(b)).filter((e): e is Obj => e !== undefined && (type === undefined || e.type === type)),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Run a (captured) host against a provider served in this process. */
async function against(
  p: Provider,
  h: RefHost = honestHost,
  opts: { token?: string; hostToken?: string; onQuery?: "drop" | "silent"; timeoutMs?: number } = {},
) {
  const s = await serve(p, opts);
  const c = captured(h, opts.timeoutMs);
  const target: HostTarget = { kind: "http", url: s.url, token: opts.hostToken };
  const code = await runHost(c.host, target);
  await s.close();
  return { code, out: c.out, err: c.err, s };
}

const types = (s: Served): string[] => s.sent().map((e) => e.type as string);
const queryOf = (s: Served): Obj => s.sent("query")[0]!.query as Obj;

/**
 * A scripted stdio provider: it answers the handshake with cfg.ack, and a
 * query with cfg.notes (lines first) and cfg.frames, or stays silent, or
 * writes half a line and exits 1. It writes its pid to cfg.pidFile.
 */
const SCRIPTED = `
const fs = require("node:fs");
const cfg = JSON.parse(process.argv[1]);
if (cfg.pidFile) fs.writeFileSync(cfg.pidFile, String(process.pid));
require("node:readline").createInterface({ input: process.stdin }).on("line", (l) => {
  let env;
  try { env = JSON.parse(l); } catch { return; }
  if (env.type === "handshake") return void process.stdout.write(JSON.stringify(cfg.ack) + "\\n");
  if (env.type === "query") {
    if (cfg.onQuery === "silent") return;
    if (cfg.onQuery === "crash") return void process.stdout.write('{"type":"frames","res', () => process.exit(1));
    for (const n of cfg.notes ?? []) process.stdout.write(JSON.stringify(n) + "\\n");
    return void process.stdout.write(JSON.stringify(cfg.frames) + "\\n");
  }
  if (env.type === "shutdown") process.exit(0);
}).on("close", () => process.exit(0));
setInterval(() => {}, 1 << 30);
`;

const scripted = (cfg: Obj): HostTarget => ({ kind: "stdio", command: [process.execPath, "-e", SCRIPTED, JSON.stringify(cfg)] });
const LOCK_ACK = lockStep().ack();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

t.test("the honest flow over stdio against the reference provider: handshake, query, verify, shutdown, exit 0", async (t) => {
  const c = captured();
  const code = await runHost(c.host, { kind: "stdio", command: [BUN, CLI, "fixture"] });
  t.equal(code, 0, c.err.join("\n"));
  t.same(c.err, []);
  t.ok(c.out.length >= 2);
  const frames = c.out.filter((l) => l.startsWith("frame "));
  const verified = c.out.filter((l) => l.startsWith("verified "));
  t.ok(frames.length > 0);
  for (const l of frames) t.match(l, /^frame \S+ kind (doc|snippet|fact|symbol) \d+ tokens$/);
  t.equal(verified.length, frames.length, "one verdict per digest-bearing frame");
  for (const l of verified) t.match(l, /^verified \S+ valid$/);
  t.ok(frames.includes("frame fixture:retry-doc#compact kind doc 15 tokens"), "compact preferred, since it is advertised");
});

t.test("lock-step over HTTP: no id, no embedding, advertised preferences only, no verify, then shutdown", async (t) => {
  const r = await against(lockStep());
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(types(r.s), ["handshake", "query", "shutdown"]);
  t.same(r.s.sent("handshake")[0], { type: "handshake", protocol_version: HOST_VERSION });
  const q = r.s.sent("query")[0]!;
  t.notOk("id" in q, "no id to a provider that did not declare correlation (H4)");
  t.same(q.query, { goal: "cgp-conform reference host", kinds: [], max_frames: 8, max_tokens: 4000, representation_preferences: ["compact", "full"] });
  t.same(r.s.sent("shutdown")[0], { type: "shutdown" });
  t.ok(r.out.length > 0);
});

t.test("correlation and verify declared: ids on query and verify, identities only, digest-bearing only", async (t) => {
  const p: Provider = {
    ...honest,
    frame(doc) {
      const f = honest.frame.call(this, doc);
      if (doc.id === "fixture:retry-fn") delete f.content_digest;
      return f;
    },
  };
  const r = await against(p);
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(types(r.s), ["handshake", "query", "verify", "query", "shutdown"], "the digest-less frame, never verifiable, is queried again (V1, D3)");
  t.equal(r.s.sent("query")[0]!.id, "ref-host-1");
  t.equal(r.s.sent("query")[1]!.id, "ref-host-3");
  const v = r.s.sent("verify")[0]!;
  t.equal(v.id, "ref-host-2");
  const ids = (v.request as Obj).frames as Obj[];
  t.ok(ids.length > 0);
  for (const i of ids) {
    t.same(Object.keys(i).sort(), ["content_digest", "frame_id", "provider_id"], "an identity, no body (V1)");
    t.equal(i.provider_id, NAME);
  }
  t.notOk(
    ids.some((i) => i.frame_id === "fixture:retry-fn"),
    "the frame without a content_digest is left out",
  );
  t.ok(r.out.includes("frame fixture:retry-fn kind snippet 56 tokens"));
  t.equal(r.out.filter((l) => l.startsWith("verified ")).length, ids.length);
  t.notOk("embedding" in queryOf(r.s), "no embedding: the reference host has no model (E1)");
});

t.test("a foreign fingerprint and a full-only provider: no embedding, no representation_preferences", async (t) => {
  const r = await against(
    withAck((a) => {
      const caps = a.capabilities as Obj;
      caps.embeddings_fingerprint = "cgp-conform-run-4f1a/8/l2";
      caps.representations = ["full"];
    }, lockStep()),
  );
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(Object.keys(queryOf(r.s)).sort(), ["goal", "kinds", "max_frames", "max_tokens"]);
});

t.test("refusals: egress, off-machine scopes, a wrong family: exit 1, the named error, no query", async (t) => {
  const egress = await against(withAck((a) => (((a.provider as Obj).data_flow as Obj).egress = true)));
  t.equal(egress.code, 1);
  t.same(egress.err, [`reference-host: error consent_required: provider ${NAME} declares egress: true and no consent is recorded (C2)`]);
  t.same(types(egress.s), ["handshake", "shutdown"]);

  const scopes = await against(withAck((a) => (((a.provider as Obj).data_flow as Obj).egress_scopes = OFF_MACHINE_SCOPES)));
  t.equal(scopes.code, 1);
  t.same(scopes.err, ["reference-host: error consent_required: scopes third-party-model, cgp-conform:mirror have no consent receipt (C6)"]);
  t.same(types(scopes.s), ["handshake", "shutdown"]);

  const family = await against(withAck((a) => (a.protocol_version = "contextgraph/2.0")));
  t.equal(family.code, 1);
  t.same(family.err, ["reference-host: error incompatible_version: provider speaks contextgraph/2.0, this host speaks contextgraph/1.x"]);
  t.same(types(family.s), ["handshake"], "nothing after the ack: the provider is unusable");

  const handshakeError = await against({ ...honest, onHandshake: (env) => [error(env, "unavailable", "warming up")] });
  t.equal(handshakeError.code, 1);
  t.same(handshakeError.err, ["reference-host: error unavailable: warming up"]);
});

t.test("a boolean consent (CGP_CONSENT=egress) opens the boolean gate and no scope gate", async (t) => {
  const consented: RefHost = { ...honestHost, consent: "egress" };
  const egress = await against(
    withAck((a) => (((a.provider as Obj).data_flow as Obj).egress = true)),
    consented,
  );
  t.equal(egress.code, 0, egress.err.join("\n"));
  t.same(types(egress.s), ["handshake", "query", "verify", "shutdown"], "an egress provider with no scopes is queried: consent is recorded (C2)");

  const scoped = await against(
    withAck((a) => Object.assign((a.provider as Obj).data_flow as Obj, { egress: true, egress_scopes: OFF_MACHINE_SCOPES })),
    consented,
  );
  t.equal(scoped.code, 1);
  t.same(scoped.err, [
    "reference-host: error consent_required: scopes third-party-model, cgp-conform:mirror have no consent receipt, and the boolean consent recorded for this provider satisfies no scope gate (C6)",
  ]);
  t.same(types(scoped.s), ["handshake", "shutdown"], "no query: a boolean consent is no receipt");

  const local = await against(
    withAck((a) => Object.assign((a.provider as Obj).data_flow as Obj, { egress_scopes: ["local-only"] })),
    consented,
  );
  t.equal(local.code, 0, "local-only is not off-machine: nothing to refuse");

  for (const [value, want] of [
    ["egress", "egress"],
    [undefined, "none"],
    ["", "none"],
    ["none", "none"],
    ["EGRESS", "none"],
    ["all", "none"],
    ["third-party-model", "none"],
  ] as const)
    t.equal(consentOf(value), want, `CGP_CONSENT ${JSON.stringify(value)} gives ${want}: an unknown value grants nothing`);
  t.equal(hostFor().consent, "none", "the honest host holds no consent unless told");
  t.equal(hostFor("C6-boolean-gate-only", 1000, "egress").consent, "egress", "a mode keeps the consent it is given");
});

t.test("reference-host reads its consent from CGP_CONSENT, as a host under test does", async (t) => {
  const p = withAck((a) => (((a.provider as Obj).data_flow as Obj).egress = true), { ...lockStep(), onQuery: (env) => [error(env, "internal", "served")] });
  const saved = process.env[HOST_ENV.consent];
  try {
    for (const [value, queried] of [
      ["egress", true],
      [undefined, false],
    ] as const) {
      if (value === undefined) delete process.env[HOST_ENV.consent];
      else process.env[HOST_ENV.consent] = value;
      const s = await serve(p);
      await runReferenceHost({ timeoutMs: 5000, target: { kind: "http", url: s.url } });
      await s.close();
      t.equal(s.sent("query").length > 0, queried, `CGP_CONSENT ${value ?? "unset"}: ${queried ? "queried" : "refused"}`);
    }
  } finally {
    if (saved === undefined) delete process.env[HOST_ENV.consent];
    else process.env[HOST_ENV.consent] = saved;
  }
});

t.test("errors: an unrecognised code is internal, and neither is retried", async (t) => {
  for (const code of ["internal", UNHEARD_OF_CODE]) {
    const r = await against({ ...lockStep(), onQuery: (env) => [error(env, code, "no luck")] });
    t.equal(r.code, 1);
    t.same(r.err, [`reference-host: provider error ${code} (treated as internal): no luck`]);
    t.same(types(r.s), ["handshake", "query", "shutdown"], `${code}: one query`);
  }
  const retried = await against({ ...lockStep(), onQuery: (env) => [error(env, UNHEARD_OF_CODE, "no luck")] }, hostFor("X1-retry-unknown-code"));
  t.equal(retried.code, 1);
  t.equal(retried.s.sent("query").length, 3, "X1-retry-unknown-code sends the query twice more");
  const internal = await against({ ...lockStep(), onQuery: (env) => [error(env, "internal", "no luck")] }, hostFor("X1-retry-unknown-code"));
  t.equal(internal.s.sent("query").length, 1, "X1-retry-unknown-code does not retry internal");
});

/** Extra members at every level, a frame of an unknown kind with a relation of an unknown rel. */
const unknowns: Provider = {
  ...withAck((a) => {
    a.cgp_conform_future = { x: 1 };
    (a.provider as Obj).cgp_conform_future = true;
    ((a.provider as Obj).data_flow as Obj).cgp_conform_future = true;
    (a.capabilities as Obj).cgp_conform_future = 1;
  }, lockStep()),
  onQuery(env) {
    const [reply] = honest.onQuery.call(this, env);
    const result = reply!.result as Obj;
    const frames: Obj[] = (result.frames as Obj[]).map((f) => ({ ...f, cgp_conform_future: "x" }));
    frames[0] = { ...frames[0]!, kind: UNKNOWN_KIND, relations: [{ rel: UNKNOWN_REL, target_uri: "file:///x#y", display_name: "x" }] };
    return [{ ...reply!, cgp_conform_future: 1, result: { ...result, frames, cgp_conform_future: 1 } }];
  },
};

t.test("unknown members and vocabulary are ignored; U1 and U2 modes reject them", async (t) => {
  const r = await against(unknowns);
  t.equal(r.code, 0, r.err.join("\n"));
  t.match(r.out[0], new RegExp(`^frame \\S+ kind ${UNKNOWN_KIND} \\d+ tokens$`), "the unknown kind is kept, as opaque evidence");

  const u1 = await against(unknowns, hostFor("U1-reject-unknown-members"));
  t.equal(u1.code, 1);
  t.match(u1.err.join("\n"), /reference-host: error bad_response: unexpected member "cgp_conform_future" in handshake_ack/);
  t.same(types(u1.s), ["handshake"]);
  const u1Frames = await against({ ...lockStep(), onQuery: unknowns.onQuery }, hostFor("U1-reject-unknown-members"));
  t.match(u1Frames.err.join("\n"), /unexpected member "cgp_conform_future" in frames/);

  const u2 = await against(unknowns, hostFor("U2-reject-unknown-kind"));
  t.equal(u2.code, 1);
  t.match(u2.err.join("\n"), /unknown kind "hologram"/);
});

t.test("stdio: an unknown notification is ignored while waiting for the answer", async (t) => {
  const frames = {
    type: "frames",
    result: { frames: [{ id: "a", kind: "doc", title: "A", content: "x", score: 0.5, token_cost: 1, citation_label: "A" }], truncated: false },
  };
  const c = captured();
  const code = await runHost(c.host, scripted({ ack: LOCK_ACK, notes: [{ type: "cgp_conform_progress", pct: 50 }], frames }));
  t.equal(code, 0, c.err.join("\n"));
  t.same(c.out, ["frame a kind doc 1 tokens"]);
  t.same(c.err, []);
});

t.test("stdio: the mode that drops its provider on an unknown type ends at the notification", async (t) => {
  const frames = {
    type: "frames",
    result: { frames: [{ id: "a", kind: "doc", title: "A", content: "x", score: 0.5, token_cost: 1, citation_label: "A" }], truncated: false },
  };
  const c = captured(hostFor("S2-drop-on-unknown-type"));
  const code = await runHost(c.host, scripted({ ack: LOCK_ACK, notes: [{ type: UNKNOWN_ENVELOPE }], frames }));
  t.equal(code, 1);
  t.same(c.out, [], "nothing of the answer taken");
  t.match(c.err.join("\n"), /error bad_response: unknown envelope type "frames_invalidated"/);
});

t.test("incompatible_version at the handshake: the honest host sends nothing more, the mode one handshake more", async (t) => {
  const refusing: Provider = { ...honest, onHandshake: (env) => [error(env, "incompatible_version", "contextgraph/2 only")] };
  const honestRun = await against(refusing);
  t.equal(honestRun.code, 1);
  t.same(types(honestRun.s), ["handshake"], "one handshake, nothing after it");
  t.same(honestRun.err, ["reference-host: error incompatible_version: contextgraph/2 only"]);
  const retried = await against(refusing, hostFor("S10-retry-incompatible"));
  t.equal(retried.code, 1);
  t.same(types(retried.s), ["handshake", "handshake"], "the handshake once more, then nothing");
});

t.test("a silent provider times out: exit 1, the named error, the provider reaped", async (t) => {
  const pidFile = join(tmp, "silent.pid");
  // A process started under tap may take a while to answer the handshake: the short deadline is the query's.
  const c = captured({ ...honestHost, deadline: (phase) => (phase === "query" ? 300 : 10_000) });
  let asked = 0;
  const code = await runHost(
    { ...c.host, query: (ack, n) => ((asked = Date.now()), honestHost.query.call(c.host, ack, n)) },
    scripted({ ack: LOCK_ACK, onQuery: "silent", pidFile }),
  );
  t.equal(code, 1);
  t.same(c.err, ["reference-host: error timeout: no answer within 300 ms"]);
  t.ok(Date.now() - asked < 2000, "no shutdown grace after a timeout: killed at once");
  const pid = Number(readFileSync(pidFile, "utf8"));
  t.notOk(alive(pid), "the provider is gone");

  const http = await against(lockStep(), honestHost, { onQuery: "silent", timeoutMs: 300 });
  t.equal(http.code, 1);
  t.same(http.err, ["reference-host: error timeout: no answer within 300 ms"]);
});

t.test("a provider that dies mid-query is provider_crashed", async (t) => {
  const c = captured();
  const code = await runHost(c.host, scripted({ ack: LOCK_ACK, onQuery: "crash" }));
  t.equal(code, 1);
  t.equal(c.err.at(-1), "reference-host: error provider_crashed: the provider ended before it answered (exit status 1)");

  const http = await against(lockStep(), honestHost, { onQuery: "drop" });
  t.equal(http.code, 1);
  t.match(http.err.at(-1), /^reference-host: error provider_crashed: the connection was dropped before an answer/);
});

t.test("the bearer token goes in the header and nowhere else; C8-log-token prints it", async (t) => {
  const r = await against(lockStep(), honestHost, { token: TOKEN, hostToken: TOKEN });
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(new Set(r.s.auths), new Set([`Bearer ${TOKEN}`]), "every request carries it");
  const printed = [...r.out, ...r.err].join("\n");
  t.notOk(printed.includes(TOKEN) || printed.includes(Buffer.from(TOKEN).toString("base64")), "the token is never printed");

  const without = await against(lockStep(), honestHost, { token: TOKEN });
  t.equal(without.code, 1);
  t.match(without.err.join("\n"), /error unauthorized: the provider answered HTTP 401/);
  t.notOk(without.err.join("\n").includes(TOKEN));

  const leaky = await against(lockStep(), hostFor("C8-log-token"), { token: TOKEN, hostToken: TOKEN });
  t.equal(leaky.code, 0);
  t.ok(leaky.err.join("\n").includes(TOKEN), "C8-log-token leaks the token on stderr");
});

t.test("a provider that cannot be started, or reached, is unreachable", async (t) => {
  const c = captured();
  t.equal(await runHost(c.host, { kind: "stdio", command: [join(tmp, "no-such-provider")] }), 1);
  t.match(c.err.at(-1), /^reference-host: error unreachable: the provider could not be started \(/);
});

/** HTTP bindings that record each URL the host reached and answer nothing: what a refusal before any byte leaves is told by. */
function recordingHttp(): { reached: string[]; bindings: Bindings } {
  const reached: string[] = [];
  const bindings: Bindings = {
    stdio: () => {
      throw new Error("not over stdio");
    },
    http(url) {
      reached.push(url);
      return { send() {}, next: async () => ({ kind: "end", why: "a stand-in that answers nothing" }), close: async () => {}, kill: async () => {} };
    },
  };
  return { reached, bindings };
}

t.test("a non-loopback URL is egress whatever it declares (C4): refused before anything is sent, unless consent is recorded", async (t) => {
  const { reached, bindings } = recordingHttp();
  const c = captured();
  t.equal(await runHost(c.host, { kind: "http", url: "https://provider.example/" }, bindings), 1);
  t.match(c.err[0], /^reference-host: error consent_required: provider\.example is not loopback/);
  t.same(reached, [], "never reached");
  const consented = captured({ ...honestHost, consent: "egress" });
  t.equal(await runHost(consented.host, { kind: "http", url: "https://provider.example/" }, bindings), 1);
  t.same(reached, ["https://provider.example/"], "with a boolean consent it is reached");
  t.match(consented.err[0], /error provider_crashed: a stand-in that answers nothing/);
});

t.test("plain http:// to a non-loopback host is refused before anything is sent (C7), consent or not; loopback keeps it", async (t) => {
  const { reached, bindings } = recordingHttp();
  for (const consent of ["none", "egress"] as const) {
    const c = captured({ ...honestHost, consent });
    t.equal(await runHost(c.host, { kind: "http", url: "http://192.0.2.1:8080/" }, bindings), 1);
    t.match(
      c.err[0],
      /^reference-host: error insecure_transport: http:\/\/192\.0\.2\.1:8080\/ is plain http:\/\/ to 192\.0\.2\.1, which is not loopback/,
      consent,
    );
  }
  t.same(reached, [], "never reached");
  const local = captured();
  await runHost(local.host, { kind: "http", url: "http://127.0.0.1:9/" }, bindings);
  t.same(reached, ["http://127.0.0.1:9/"], "plain http:// to loopback is reached");
});

t.test("over https:// the provider's certificate is checked against the CA given, whatever NODE_TLS_REJECT_UNAUTHORIZED says", async (t) => {
  const cert = await serverCertificate("127.0.0.1");
  const ca = (await runAuthority()).cert;
  const lp = lineProvider(lockStep());
  const server = createHttpsServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const { lines } = lp.receive(body);
      if (lines.length === 0) return void res.writeHead(204).end();
      res.writeHead(200, { "content-type": "application/json" }).end(lines[0]);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  t.teardown(() => {
    server.close();
    server.closeAllConnections();
  });
  const trusted = captured();
  t.equal(await runHost(trusted.host, { kind: "http", url, ca }), 0, trusted.err.join("\n"));
  t.ok(
    trusted.out.some((l) => l.startsWith("frame ")),
    "the query was answered over TLS",
  );
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  t.teardown(() => (before === undefined ? delete process.env.NODE_TLS_REJECT_UNAUTHORIZED : (process.env.NODE_TLS_REJECT_UNAUTHORIZED = before)));
  const untrusted = captured();
  t.equal(await runHost(untrusted.host, { kind: "http", url }), 1);
  t.match(untrusted.err.at(-1), /^reference-host: error unreachable: the provider's TLS certificate is not trusted \(.+\): give its CA in CGP_PROVIDER_CA/);
});

t.test("S2-non-json-line sends its line between the ack and the query, and still does its work", async (t) => {
  const r = await against(lockStep(), hostFor("S2-non-json-line"));
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(
    r.s.bodies.slice(0, 3).map((b, i) => (i === 1 ? b : parseObj(b)?.type)),
    ["handshake", "# reference-host: debug", "query"],
  );
});

t.test("a second turn after a verify: reuse on valid alone, the rest queried again, a block and a report each turn", async (t) => {
  const dir = mkdtempSync(join(tmp, "reuse-"));
  const files = { contextPath: join(dir, "context.ndjson"), usagePath: join(dir, "usage.ndjson") };
  const r = await against(scenario("reuse", { token: "t", nonce: "n" }).provider, { ...honestHost, ...files });
  t.equal(r.code, 0, r.err.join("\n"));
  t.same(types(r.s), ["handshake", "query", "verify", "query", "shutdown"]);
  const ids = ((r.s.sent("verify")[0]!.request as Obj).frames as Obj[]).map((i) => i.frame_id);
  t.notOk(ids.includes("fixture:undigested"), "the digest-less frame is not verified (V1)");
  t.match(
    r.err.join("\n"),
    /not reusing 5 held frames: fixture:changed \(stale\), fixture:removed \(gone\), fixture:unsure \(unknown\), fixture:unanswered \(no verdict\), fixture:undigested \(no content_digest\)/,
  );
  const blocks = readFileSync(files.contextPath, "utf8")
    .trim()
    .split("\n")
    .map((l) => String((JSON.parse(l) as Obj).text));
  t.equal(blocks.length, 2, "one block a turn");
  t.same(markersIn(blocks[0]!).sort(), ["cgpmark-re-01", "cgpmark-re-02", "cgpmark-re-03", "cgpmark-re-04", "cgpmark-re-05", "cgpmark-re-06"]);
  t.same(
    markersIn(blocks[1]!).sort(),
    ["cgpmark-re-01", "cgpmark-re-12", "cgpmark-re-14", "cgpmark-re-15", "cgpmark-re-16"],
    "the valid frame once, the rest as served again, the gone one not at all",
  );
  const reports = readFileSync(files.usagePath, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Obj);
  t.same(
    reports.map((x) => x.budget_consumed),
    [99, 83],
    "a usage report for each query",
  );

  const valid = await against(honest, { ...honestHost, contextPath: join(dir, "v.ndjson") });
  t.same(types(valid.s), ["handshake", "query", "verify", "shutdown"], "everything valid: nothing to query again");
  const same = readFileSync(join(dir, "v.ndjson"), "utf8").trim().split("\n");
  t.equal(same.length, 2);
  t.equal(same[0], same[1], "and the second block is the first, byte for byte");
});

/** What each mode changes, seen by calling the behaviour it overrides; every mode must be here. */
const FRAMES: Obj[] = [
  { id: "a", kind: "doc", title: "A", content: "x", content_digest: `sha256:${"0".repeat(64)}`, score: 0.5, token_cost: 1, citation_label: "A" },
];
const ackWith = (change: (a: Obj) => void): Obj => {
  const a = structuredClone(LOCK_ACK);
  change(a);
  return a;
};
const EGRESS_ACK = ackWith((a) => (((a.provider as Obj).data_flow as Obj).egress = true));
const SCOPES_ACK = ackWith((a) => (((a.provider as Obj).data_flow as Obj).egress_scopes = OFF_MACHINE_SCOPES));
/** egress-scopes-consented's: the same scopes beside egress: true. */
const CONSISTENT_ACK = ackWith((a) => Object.assign((a.provider as Obj).data_flow as Obj, { egress: true, egress_scopes: OFF_MACHINE_SCOPES }));
const FULL_ONLY_ACK = ackWith((a) => ((a.capabilities as Obj).representations = ["full"]));

/** What a host holds after compose's two providers answered, in arrival order. */
const COMPOSE_HELD = (): Held[] =>
  [0, 1].flatMap((i) => {
    const p = scenario("compose", { token: "t", nonce: "n" }, i).provider;
    const frames = ((p.onQuery({ type: "query", query: { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 } })[0]!.result as Obj).frames as Obj[]) ?? [];
    return frames.map((frame) => ({ provider_id: String((p.ack().provider as Obj).name), frame }));
  });

const verdict = (status: string): Obj => ({ frame: { frame_id: "a" }, status });
const DIGESTLESS = { ...FRAMES[0]!, content_digest: undefined };

/** What provider `index` of a scenario answers the reference host's query with, and its ack. */
const answerOf = (name: "budget-breaker" | "unverifiable-attestation", index = 0): { ack: Obj; env: Obj } => {
  const p = scenario(name, { token: "t", nonce: "n" }, index).provider;
  return { ack: p.ack(), env: p.onQuery(honestHost.query.call(honestHost, p.ack(), 1))[0]! };
};

/** reference-unresolvable's frames as the reference host holds them. */
const REFS_HELD = (): Held[] => {
  const p = scenario("reference-unresolvable", { token: "t", nonce: "n" }).provider;
  const frames = (p.onQuery({ type: "query", query: { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 } })[0]!.result as Obj).frames as Obj[];
  return frames.map((frame) => ({ provider_id: String((p.ack().provider as Obj).name), frame }));
};
const REF_FRAME = (): Held => REFS_HELD().find((h) => h.frame.representation === "reference")!;

const CLAIMS: Record<string, (h: RefHost, t: Test) => void> = {
  "S6-reference-title-as-content": (h, t) => {
    const ref = REF_FRAME();
    t.match(h.renderFrame(ref), new RegExp(`>\\n${String(ref.frame.title)}\\n</frame>`), "its title where its content would be");
    t.match(honestHost.renderFrame.call(honestHost, ref), />\n\n<\/frame>/, "the honest host renders it empty");
    const full = REFS_HELD().find((x) => x !== ref && typeof x.frame.content === "string")!;
    t.equal(h.renderFrame(full), honestHost.renderFrame.call(honestHost, full), "a full frame as the honest host renders it");
  },
  "S10-retry-incompatible": (h, t) => {
    t.equal(h.handshakeRetries(h.classify("incompatible_version")), 1);
    t.equal(honestHost.handshakeRetries.call(honestHost, "incompatible_version"), 0);
    t.equal(h.handshakeRetries(h.classify("internal")), 0, "nothing else is retried");
  },
  "S2-drop-on-unknown-type": (h, t) => {
    t.match(h.unexpected({ type: UNKNOWN_ENVELOPE }), /unknown envelope type "frames_invalidated"/);
    t.equal(h.unexpected({ type: "frames", id: "stale-reply" }), undefined, "an envelope of a known type is still read past");
    t.equal(honestHost.unexpected.call(honestHost, { type: UNKNOWN_ENVELOPE }), undefined, "the honest host ignores it");
  },
  "D2-render-twice": (h, t) => {
    const held = [
      { provider_id: "p", frame: FRAMES[0]! },
      { provider_id: "p", frame: FRAMES[0]! },
    ];
    t.equal(h.order(held).length, 2, "one identity, twice");
    t.equal(honestHost.order.call(honestHost, held).length, 1, "the honest host renders it once");
  },
  "D3-reuse-digestless": (h, t) => {
    t.ok(h.reuses(DIGESTLESS, undefined));
    t.notOk(honestHost.reuses.call(honestHost, DIGESTLESS, undefined));
    t.notOk(h.reuses(FRAMES[0]!, verdict("stale")), "a stale frame is still dropped");
  },
  "V2-silence-as-valid": (h, t) => {
    t.ok(h.reuses(FRAMES[0]!, undefined));
    t.notOk(honestHost.reuses.call(honestHost, FRAMES[0]!, undefined));
    t.notOk(h.reuses(FRAMES[0]!, verdict("unknown")), "unknown is still dropped");
  },
  "V3-unknown-as-valid": (h, t) => {
    t.ok(h.reuses(FRAMES[0]!, verdict("unknown")));
    t.notOk(honestHost.reuses.call(honestHost, FRAMES[0]!, verdict("unknown")));
    t.notOk(h.reuses(FRAMES[0]!, undefined), "no verdict is still dropped");
  },
  "V4-keep-stale-copies": (h, t) => {
    t.ok(h.reuses(FRAMES[0]!, verdict("stale")));
    t.ok(h.reuses(FRAMES[0]!, verdict("gone")));
    t.notOk(honestHost.reuses.call(honestHost, FRAMES[0]!, verdict("stale")));
    t.notOk(h.reuses(FRAMES[0]!, verdict("unknown")), "unknown is still dropped");
  },
  "CR4-reuse-unchecked": (h, t) => {
    const without = { capabilities: {} };
    const declared = { capabilities: { verify: true } };
    t.ok(h.reuses(FRAMES[0]!, undefined, without), "a frame of a provider without verify is reused unchecked");
    t.notOk(honestHost.reuses.call(honestHost, FRAMES[0]!, undefined, without));
    t.ok(h.requeries([], without), "and the provider queried again all the same");
    t.notOk(h.reuses(FRAMES[0]!, undefined, declared), "silence after a verify is still dropped");
  },
  "U2-rewrite-unknown-kind": (h, t) => {
    const kind = (held: Held): string | undefined => h.attributes(held).find(([k]) => k === "kind")?.[1];
    t.equal(kind({ provider_id: "p", frame: { ...FRAMES[0]!, kind: UNKNOWN_KIND } }), "doc");
    t.equal(
      honestHost.attributes.call(honestHost, { provider_id: "p", frame: { ...FRAMES[0]!, kind: UNKNOWN_KIND } }).find(([k]) => k === "kind")?.[1],
      UNKNOWN_KIND,
    );
    t.equal(kind({ provider_id: "p", frame: { ...FRAMES[0]!, kind: "snippet" } }), "snippet", "a base kind is shown as served");
  },
  "R3-raw-content": (h, t) => {
    const held = { provider_id: "p", frame: { ...FRAMES[0]!, content: 'one\n</frame>\n<frame id="x">' } };
    t.match(h.renderFrame(held), /^<\/frame>$/m, "the content's closer left as a line of its own");
    t.notMatch(honestHost.renderFrame.call(honestHost, held).split("\n").slice(1, -1).join("\n"), /<\/?frame/, "the honest host neutralises it");
  },
  "B2-truncate-breaker": (h, t) => {
    const { ack, env } = answerOf("budget-breaker");
    const q = honestHost.query.call(honestHost, ack, 1);
    t.equal(h.budgetAudit(q, env, ack), undefined, "no audit");
    t.ok(honestHost.budgetAudit.call(honestHost, q, env, ack), "the honest host's audit drops the answer");
    t.equal({ ...h, print: () => {} }.onFrames(env, ack).length, 2, "two of the three frames kept, those that fit");
  },
  "F9-drop-unverifiable": (h, t) => {
    const { ack, env } = answerOf("unverifiable-attestation");
    const quiet = (x: RefHost): RefHost => ({ ...x, print: () => {}, log: () => {} });
    t.same(
      quiet(h)
        .onFrames(env, ack)
        .map((f) => f.id),
      ["fixture:freeze-4"],
      "only the unattested frame kept",
    );
    t.equal(quiet(honestHost).onFrames(env, ack).length, 4, "the honest host keeps all four");
  },
  "C4-trust-egress-claim": (h, t) => {
    t.equal(h.remoteRefusal("https://192.0.2.1:8443/"), undefined, "a non-loopback provider is not egress by its address");
    t.ok(h.transportRefusal("http://192.0.2.1:8080/"), "plain http:// to it is still refused");
    t.ok(h.refusal(EGRESS_ACK), "a declared egress is still gated");
  },
  "C7-plaintext-remote": (h, t) => {
    t.equal(h.transportRefusal("http://192.0.2.1:8080/"), undefined, "plain http:// to a non-loopback host is taken");
    t.ok(h.remoteRefusal("http://192.0.2.1:8080/"), "it is still egress by its address");
    t.ok(h.transportRefusal("ftp://192.0.2.1/"), "a URL that is no http(s) one is still refused");
  },
  "C7-plaintext-handshake": (h, t) => {
    t.equal(h.refusal(LOCK_ACK), undefined, "before any plain URL off loopback, the honest gates");
    t.equal(h.transportRefusal("http://192.0.2.1:8080/"), undefined, "plain http:// to a non-loopback host is let through the transport");
    t.equal(h.refusal(LOCK_ACK)?.code, "insecure_transport", "and the query refused once the ack is in");
    t.ok(h.transportRefusal("ftp://192.0.2.1/"), "a URL that is no http(s) one is still refused");
  },
  "C2-ignore-egress": (h, t) => {
    t.equal(h.refusal(EGRESS_ACK), undefined);
    t.ok(h.refusal(SCOPES_ACK), "scopes still refused");
  },
  "C6-boolean-gate-only": (h, t) => {
    t.equal(h.refusal(SCOPES_ACK), undefined);
    t.ok(h.refusal(EGRESS_ACK), "egress still refused");
    t.equal({ ...h, consent: "egress" as const }.refusal(CONSISTENT_ACK), undefined, "and scopes beside egress: true, once consented, are not");
  },
  "C6-consent-record-for-scopes": (h, t) => {
    t.match(h.refusal(SCOPES_ACK)?.message, /scopes third-party-model, cgp-conform:mirror have no consent receipt/, "without consent: refused");
    t.match(h.refusal(CONSISTENT_ACK)?.message, /declares egress: true/, "without consent: refused by the boolean gate");
    t.equal({ ...h, consent: "egress" as const }.refusal(CONSISTENT_ACK), undefined, "with a boolean consent: the scopes are let through");
  },
  "C6-contradiction-check-only": (h, t) => {
    t.match(h.refusal(SCOPES_ACK)?.message, /egress_scopes beside egress: false, a contradiction \(C5\)/);
    t.ok(h.refusal(CONSISTENT_ACK), "without consent: refused by the boolean gate");
    t.equal({ ...h, consent: "egress" as const }.refusal(CONSISTENT_ACK), undefined, "with a boolean consent: no scope gate");
  },
  "CR1-arrival-order": (h, t) => {
    const held = COMPOSE_HELD();
    t.same(h.order(held), held, "as they arrived");
    t.notSame(honestHost.order.call(honestHost, held), held, "the honest host reorders the same frames");
  },
  "CR1-score-order": (h, t) => {
    const held = COMPOSE_HELD();
    const scores = h.order(held).map((x) => x.frame.score as number);
    t.same(
      scores,
      [...scores].sort((a, b) => b - a),
      "highest score first",
    );
    t.notSame(h.order(held), honestHost.order.call(honestHost, held), "not the canonical order");
  },
  "CR1-render-score": (h, t) => {
    const [one] = COMPOSE_HELD();
    t.match(h.renderFrame(one!), / score="0\.\d+"/);
    t.notMatch(honestHost.renderFrame.call(honestHost, one!), /score/, "the honest host renders none");
  },
  "UR1-consumed-is-requested": (h, t) => {
    const r = h.usageReport([{ ack: LOCK_ACK, queried: true, frames: FRAMES, rejected: 0 }], "2026-11-30T00:00:00Z");
    t.equal(r.budget_consumed, 4000);
    t.equal(
      honestHost.usageReport.call(honestHost, [{ ack: LOCK_ACK, queried: true, frames: FRAMES, rejected: 0 }], "2026-11-30T00:00:00Z").budget_consumed,
      1,
    );
  },
  "UR1-frame-id-only": (h, t) => {
    const r = h.usageReport([{ ack: LOCK_ACK, queried: true, frames: FRAMES, rejected: 0 }], "2026-11-30T00:00:00Z");
    t.same(((r.providers as Obj[])[0]!.served_frames as Obj[])[0], { frame: { frame_id: "a" }, token_cost: 1 });
  },
  "C8-log-token": (h, t) => {
    const logged: string[] = [];
    t.equal({ ...h, log: (l: string) => void logged.push(l) }.authorization("abc123"), "Bearer abc123");
    t.match(logged.join("\n"), /Bearer abc123/);
  },
  "F10-global-threshold": (h, t) => {
    const held = [
      { provider_id: "cgp-conform-wiki", frame: { ...FRAMES[0], id: "high", score: 0.9, content: "high (cgpmark-sa-01)" } },
      { provider_id: "cgp-conform-code", frame: { ...FRAMES[0], id: "low", score: 0.009, content: "low (cgpmark-sb-01)" } },
    ];
    t.notMatch(h.compose(held), /cgpmark-sb-01/, "the low-scale provider's frame is cut");
    t.match(h.compose(held), /cgpmark-sa-01/);
    t.match(honestHost.compose.call(honestHost, held), /cgpmark-sb-01/, "the honest host keeps it");
  },
  "E1-embedding-always": (h, t) => t.same((h.query(LOCK_ACK, 1).query as Obj).embedding, [0.1, 0.2, 0.3]),
  "H3-ignore-family": (h, t) => t.ok(h.compatible("contextgraph/2.0")),
  "H3-wait-forever": (h, t) => t.equal(h.onWrongFamily(ackWith((a) => (a.protocol_version = "contextgraph/2.0"))), "keep-reading"),
  "H4-id-without-correlation": (h, t) => {
    t.equal(h.query(LOCK_ACK, 1).id, "ref-host-1");
    t.equal(
      h.verifyRequest(
        ackWith((a) => ((a.capabilities as Obj).verify = true)),
        FRAMES,
        2,
      )?.id,
      "ref-host-2",
    );
  },
  "P5-unadvertised-representation": (h, t) => t.same((h.query(FULL_ONLY_ACK, 1).query as Obj).representation_preferences, ["compact", "full"]),
  "S11-no-read-timeout": (h, t) => {
    t.equal(h.deadline("query"), undefined);
    t.equal(h.deadline("handshake"), Math.max(h.timeoutMs, STARTUP_DEADLINE_MS), "the handshake keeps its startup deadline");
  },
  "S2-envelope-string-budget": (h, t) => t.equal((h.query(LOCK_ACK, 1).query as Obj).max_tokens, "4000"),
  "S2-non-json-line": (h, t) => t.same(h.beforeQuery(LOCK_ACK), ["# reference-host: debug"]),
  "S3-unversioned": (h, t) => t.equal(h.handshake().protocol_version, "contextgraph/1"),
  "S2-pretty-printed-handshake": (h, t) => {
    t.ok(h.serialize(h.handshake()).includes("\n"), "its handshake spans lines");
    t.notOk(h.serialize({ type: "shutdown" }).includes("\n"), "nothing else does");
  },
  "U1-reject-unknown-members": (h, t) => {
    t.match(h.reject({ ...LOCK_ACK, extra: 1 }), /unexpected member "extra" in handshake_ack/);
    t.equal(h.reject(LOCK_ACK), undefined, "a plain ack is taken");
  },
  "U2-drop-whole-answer": (h, t) => {
    const odd = {
      type: "frames",
      result: {
        frames: [
          { ...FRAMES[0], kind: UNKNOWN_KIND },
          { ...FRAMES[0], id: "b" },
        ],
        truncated: false,
      },
    };
    t.same(h.onFrames(odd, LOCK_ACK), [], "nothing kept of an answer holding an unknown kind");
    t.equal(h.reject(odd), undefined, "and nothing rejected: it carries on");
    t.equal(h.onFrames({ type: "frames", result: { frames: FRAMES, truncated: false } }, LOCK_ACK).length, 1);
  },
  "U2-reject-unknown-kind": (h, t) => {
    t.match(h.reject({ type: "frames", result: { frames: [{ ...FRAMES[0], kind: UNKNOWN_KIND }], truncated: false } }), /unknown kind "hologram"/);
    t.equal(h.reject({ type: "frames", result: { frames: FRAMES, truncated: false } }), undefined);
  },
  "V1-bodies-in-verify": (h, t) => {
    const ids = (
      h.verifyRequest(
        ackWith((a) => ((a.capabilities as Obj).verify = true)),
        FRAMES,
        2,
      )?.request as Obj
    ).frames as Obj[];
    t.equal(ids[0]!.content, "x");
    t.equal(ids[0]!.title, "A");
  },
  "V1-verify-undeclared": (h, t) => t.ok(h.verifyRequest(LOCK_ACK, FRAMES, 2)),
  "X1-retry-unknown-code": (h, t) => {
    t.equal(h.retries(h.classify(UNHEARD_OF_CODE)), 2);
    t.equal(h.retries(h.classify("internal")), 0);
  },
  "X2-retry-codeless-error": (h, t) => {
    t.equal(h.retries(h.classify(undefined)), 2, "an error with no code is retried twice");
    t.equal(h.retries(h.classify("internal")), 0);
    t.equal(h.retries(h.classify(UNHEARD_OF_CODE)), 0, "an unknown code is not");
  },
};

t.test("the honest host does none of what the modes do", async (t) => {
  const h = hostFor();
  t.equal(h.transportRefusal("http://192.0.2.1:8080/")?.code, "insecure_transport");
  t.equal(h.transportRefusal("http://127.0.0.1:8080/"), undefined);
  t.equal(h.transportRefusal("https://192.0.2.1:8443/"), undefined);
  t.equal(h.remoteRefusal("https://192.0.2.1:8443/")?.code, "consent_required");
  t.equal(h.remoteRefusal("http://localhost:8080/"), undefined);
  t.equal({ ...h, consent: "egress" as const }.remoteRefusal("https://192.0.2.1:8443/"), undefined, "a boolean consent opens C4's gate");
  t.ok(h.refusal(EGRESS_ACK));
  t.ok(h.refusal(SCOPES_ACK));
  t.equal(h.refusal(LOCK_ACK), undefined);
  const consented = { ...h, consent: "egress" as const };
  t.equal(consented.refusal(EGRESS_ACK), undefined, "a boolean consent opens the boolean gate");
  t.match(consented.refusal(CONSISTENT_ACK)?.message, /satisfies no scope gate \(C6\)/, "and no scope gate");
  t.ok(consented.refusal(SCOPES_ACK), "nor the scopes beside egress: false");
  t.notOk(h.compatible("contextgraph/2.0"));
  t.ok(h.compatible("contextgraph/1.7"));
  t.notOk(h.compatible("contextgraph/1"));
  t.same(h.onWrongFamily(ackWith((a) => (a.protocol_version = "contextgraph/2.0"))), {
    code: "incompatible_version",
    message: "provider speaks contextgraph/2.0, this host speaks contextgraph/1.x",
  });
  const q = h.query(LOCK_ACK, 1);
  t.notOk("id" in q);
  t.notOk("embedding" in (q.query as Obj));
  t.equal((q.query as Obj).max_tokens, 4000);
  t.equal((h.query(FULL_ONLY_ACK, 1).query as Obj).representation_preferences, undefined);
  t.equal(h.verifyRequest(LOCK_ACK, FRAMES, 2), undefined);
  t.ok(h.reuses(FRAMES[0]!, verdict("valid")), "reuse on valid");
  for (const s of ["stale", "gone", "unknown"]) t.notOk(h.reuses(FRAMES[0]!, verdict(s)), `no reuse on ${s}`);
  t.notOk(h.reuses(FRAMES[0]!, undefined), "nor with no verdict");
  t.notOk(h.reuses(DIGESTLESS, verdict("valid")), "nor of a digest-less frame");
  t.notOk(h.requeries([{ frame: FRAMES[0]!, verdict: verdict("gone") }]), "a gone frame is not fetched again");
  t.ok(h.requeries([{ frame: FRAMES[0]!, verdict: undefined }]), "anything else dropped is");
  t.same(h.beforeQuery(LOCK_ACK), []);
  t.equal(h.handshake().protocol_version, HOST_VERSION);
  t.equal(h.deadline("query"), h.timeoutMs);
  t.equal(h.classify(UNHEARD_OF_CODE), "internal");
  t.equal(h.classify(undefined), "internal", "X2: an absent code is internal");
  t.equal(h.retries("internal"), 0);
  t.equal(h.reject({ ...LOCK_ACK, extra: 1 }), undefined);
});

t.test("every host mode changes the behaviour it claims", async (t) => {
  t.same(Object.keys(CLAIMS).sort(), HOST_MODES.map((m) => m.name).sort(), "every mode has its claim here");
  for (const m of HOST_MODES) t.test(m.name, async (t) => CLAIMS[m.name]!(hostFor(m.name), t));
});

t.test("the host mode registry", async (t) => {
  const files = readdirSync(new URL("../misbehave/host/", import.meta.url))
    .filter((f) => f.endsWith(".ts") && !["index.ts", "mode.ts", "apply.ts"].includes(f))
    .map((f) => f.slice(0, -3))
    .sort();
  const names = HOST_MODES.map((m) => m.name);
  t.same(names, files, "every file registered under its name, alphabetically");
  for (const m of HOST_MODES) {
    t.ok([...m.expectFail, ...(m.expectWarn ?? []), ...(m.expectInfo ?? [])].length > 0, `${m.name} expects something`);
    // Info is a catch only where info is all a check may say: one of level MAY (an informative section, S11-robust).
    for (const id of m.expectInfo ?? []) t.equal(HOST_CHECKS.find((c) => c.id === id)?.level, "MAY", `${m.name}: ${id}, expected to inform, is a MAY check`);
    for (const id of [...m.expectFail, ...(m.expectWarn ?? []), ...(m.expectInfo ?? [])]) {
      t.match(id, /^host:/, `${m.name}: ${id} is a host check`);
      t.ok(m.name.startsWith(`${id.slice(5).split("-")[0]}-`), `${m.name} is named <anchor>-<defect>`);
    }
    t.match(
      readFileSync(new URL(`../misbehave/host/${m.name}.ts`, import.meta.url), "utf8"),
      /^\/\*\*\n \* Defect: [\s\S]*?\n \* Breaks /,
      `${m.name} states its defect and the rule it breaks`,
    );
  }
  try {
    hostFor("no-such-mode");
    t.fail("an unknown mode throws");
  } catch (e) {
    t.ok(e instanceof UnknownHostModeError);
  }
  t.throws(() => hostFor("no-such-mode"), /the modes are: B2-truncate-breaker, C2-ignore-egress, /);
  t.ok(isObj(hostFor()));
});
