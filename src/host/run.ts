/**
 * `cgp-conform host`: run a host under test once per scenario, against the
 * scenario provider served here (over a relay it spawns for {provider}, or
 * on a loopback URL for {url}; a scenario that needs a non-loopback peer, on
 * the --listen address), and record everything into a host transcript.
 * Every wait is bounded: a host that does not end within the bound is
 * killed with its whole process group (which holds the relay too).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type Socket } from "node:net";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { HALF_LINE, type RunSecrets } from "../reference/scenarios.ts";
import { leaks, providerTag, Recorder, Session } from "./session.ts";
import {
  boundFloorMs,
  HOST_ENV,
  PLACEHOLDERS,
  PROVIDER_PLACEHOLDERS,
  providersNamed,
  type Consent,
  type ScenarioSpec,
  type ScenarioName,
} from "../protocol/host-scenarios.ts";
import { makeFiles, recordFiles, type HostFiles } from "./files.ts";
import { parseObj } from "../protocol/envelope.ts";
import { VERSION } from "../meta/version.ts";
import { registerSecret, redact } from "../secret/redact.ts";
import { killGroup, onInterrupt, track, trackDir, untrack, untrackDir } from "../target/reaper.ts";
import { LineSplitter } from "../target/lines.ts";
import { after, loopClock, wallClock, type Clock } from "../target/clock.ts";
import { selfCommand } from "../meta/self.ts";
import type { HostEvent, HostTranscript, ScenarioRecord } from "../transcript/host.ts";
import { RELAY_COMMAND, type FromRelay, type ToRelay } from "./relay.ts";
import type { Bindings, HostTarget } from "../reference/host.ts";
import { inProcessProvider } from "./inproc.ts";
import { runAuthority, serverCertificate, STAND_IN_ADDRESS, urlHost, type KeyPair } from "./peer.ts";

export interface HostRunOptions {
  /** The host command line as given, placeholders unexpanded. */
  command: string[];
  transport: "stdio" | "http";
  /** The bound on one scenario: a host still running then is killed (a hang). The fault scenarios have a floor of their own (boundFloorMs). */
  timeoutMs: number;
  /**
   * The floor of the fault scenarios' bound, instead of FAULT_BOUND_FLOOR_MS
   * (--fault-timeout): for a host whose read deadline is known to be short
   * (the selftest's reference host reads with one of HOST_CASE_READ_MS), so
   * that a host lacking one costs that bound, not a reasonable host's deadline.
   */
  floorMs?: number;
  scenarios: readonly ScenarioSpec[];
  /**
   * With it, a host process's bound on a scenario runs from its first
   * contact with a provider (a relay connecting, its first request), and it
   * has this long to make that contact: the start of its runtime, and of
   * the relay's, which load stretches, is not its time in the scenario.
   */
  startupMs?: number;
  /** Aborted when a signal interrupts the run: the scenario in progress ends as at its bound. */
  signal?: AbortSignal;
  /** Called as each scenario starts (progress). */
  onScenario?: (name: string, index: number, of: number) => void;
  /**
   * A host run in this process instead of the command (the selftest's host
   * modes): given its target and the bindings that reach the scenario
   * provider here, it resolves with its exit status. The command is still
   * what the record names.
   */
  inProcess?: InProcessHost;
  /** The non-loopback address of this machine (--listen, vetted) that the scenarios needing one are served on; without it (and without `standIn`) they are skipped. */
  listen?: string;
  /**
   * A host in this process for the scenarios that need a non-loopback peer,
   * where no --listen address is given (the selftest): it is handed a URL on
   * STAND_IN_ADDRESS and reaches the scenario provider through the
   * in-process stand-in, so nothing is sent anywhere.
   */
  standIn?: InProcessHost;
}

export type InProcessHost = (a: {
  target: HostTarget;
  /** Every provider of the scenario, first = target. */
  targets: HostTarget[];
  /** The files a host process would find in {context} and {usage}. */
  files: HostFiles;
  bindings: Bindings;
  /** What a host process would find in CGP_CONSENT: the scenario's consent, or undefined where it gives none. */
  consent: string | undefined;
  print(line: string): void;
  log(line: string): void;
}) => Promise<number>;

/** What one scenario records at most: past it the host's lines, or its output, are not kept. */
const MAX_LINE_BYTES = 1024 * 1024;
const MAX_OUTPUT_BYTES = 1024 * 1024;
const MAX_OUTPUT_LINES = 2000;
/** The longest printed line kept whole in the record. */
const MAX_KEPT_LINE = 16 * 1024;

/** A line the host printed, as the record keeps it: cut to MAX_KEPT_LINE, the token redacted. */
const keptLine = (line: string): string => redact(line.length > MAX_KEPT_LINE ? `${line.slice(0, MAX_KEPT_LINE)}…` : line);
/** The longest line a relay sends (a base64 chunk of its stdin), with room to spare. */
const RELAY_LINE_MAX = 4 * 1024 * 1024;
/** How long the relay may take to deliver its last words after the host has ended. */
const SETTLE_MS = 300;

/** POSIX shell quoting, for a command line given as one string. */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** What fills a host command line's placeholders in one scenario. */
export interface Fill {
  /** The first provider's command (stdio) and URL (HTTP); `providers` / `urls`: every provider's, first = these. */
  provider?: string[];
  url?: string;
  providers?: string[][];
  urls?: string[];
  token: string;
  consent: Consent;
  ca?: string;
  context?: string;
  usage?: string;
}

/**
 * The host's command line with its placeholders filled: a whole {provider}
 * argument becomes the provider's arguments. A further provider's placeholder
 * ({provider2}, {url3}) the scenario has no provider for is left out where it
 * is a whole argument, and empty inside a longer one.
 */
export function expand(command: readonly string[], values: Fill): string[] {
  const commands = values.providers ?? (values.provider ? [values.provider] : []);
  const urls = values.urls ?? (values.url ? [values.url] : []);
  const [, ...furtherCommands] = PROVIDER_PLACEHOLDERS.stdio;
  const [, ...furtherUrls] = PROVIDER_PLACEHOLDERS.http;
  const out: string[] = [];
  for (const arg of command) {
    if (arg === PLACEHOLDERS.provider && values.provider) {
      out.push(...values.provider);
      continue;
    }
    const further = (furtherCommands as readonly string[]).indexOf(arg);
    if (further !== -1) {
      out.push(...(commands[further + 1] ?? []));
      continue;
    }
    const furtherUrl = (furtherUrls as readonly string[]).indexOf(arg);
    if (furtherUrl !== -1) {
      if (urls[furtherUrl + 1] !== undefined) out.push(urls[furtherUrl + 1]!);
      continue;
    }
    let a = arg;
    if (values.provider) a = a.split(PLACEHOLDERS.provider).join(shellQuote(values.provider));
    furtherCommands.forEach((p, i) => (a = a.split(p).join(commands[i + 1] ? shellQuote(commands[i + 1]!) : "")));
    if (values.url) a = a.split(PLACEHOLDERS.url).join(values.url);
    furtherUrls.forEach((p, i) => (a = a.split(p).join(urls[i + 1] ?? "")));
    a = a.split(PLACEHOLDERS.token).join(values.token);
    a = a.split(PLACEHOLDERS.consent).join(values.consent);
    if (values.ca !== undefined) a = a.split(PLACEHOLDERS.ca).join(values.ca);
    if (values.context !== undefined) a = a.split(PLACEHOLDERS.context).join(values.context);
    if (values.usage !== undefined) a = a.split(PLACEHOLDERS.usage).join(values.usage);
    out.push(a);
  }
  return out;
}

interface Served {
  values: { provider?: string[]; url?: string };
  /** Resolves once no relay is connected (at once over HTTP). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Serve a scenario (its `index`-th provider, of `count`) to relays over a Unix socket in a private directory. */
async function serveStdio(name: ScenarioName, secrets: RunSecrets, rec: Recorder, dir: string, index = 0, count = 1): Promise<Served> {
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Where an HTTP scenario is served off loopback: the --listen address, over TLS with this certificate or in plain HTTP. */
interface Peer {
  address: string;
  tls?: KeyPair;
}

/** Serve a scenario (its `index`-th provider, of `count`) over HTTP, on loopback or on the --listen address. */
async function serveHttp(name: ScenarioName, secrets: RunSecrets, rec: Recorder, index = 0, count = 1, peer?: Peer): Promise<Served> {
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
  if (peer?.tls) {
    // A connection that closed before its TLS handshake completed: the host did not trust the run's CA, or spoke plain HTTP to TLS, so
    // the provider C4 asks about never reached it. Told by the close, as Bun's server emits no tlsClientError; sockets are matched by
    // their remote port, since Node hands secureConnection a TLS socket apart from the one connection gave.
    const secured = new Set<string>();
    const peerOf = (sock: { remoteAddress?: string | undefined; remotePort?: number | undefined }): string => `${sock.remoteAddress}:${sock.remotePort}`;
    server.on("secureConnection", (sock) => secured.add(peerOf(sock)));
    server.on("connection", (sock: Socket) => {
      const from = peerOf(sock);
      sock.once("close", () => {
        if (!ending && !secured.has(from))
          rec.note({ note: "tls-failed", reason: "a connection the host opened closed before its TLS handshake completed", ...tag });
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
    idle: () => Promise.resolve(),
    close: () =>
      new Promise<void>((resolve) => {
        ending = true;
        for (const r of held) r.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Read a stream into lines, up to a cap, recording each as it completes. */
function captureOutput(
  stream: NodeJS.ReadableStream | null | undefined,
  dir: "stdout" | "stderr",
  rec: Recorder,
  forms: Array<[string, string]>,
): Promise<void> {
  return new Promise((resolve) => {
    if (!stream) return resolve();
    let bytes = 0;
    let lines = 0;
    let rest = "";
    let noted = false;
    let finished = false;
    // Past the caps: how many lines held the token, and in which forms (one event at the end, not one a line).
    let unkept = 0;
    const unkeptForms = new Set<string>();
    const longest = Math.max(...forms.map(([, v]) => v.length));
    const over = (why: string): void => {
      if (noted) return;
      noted = true;
      rec.note({ note: "over-cap", reason: `the host wrote ${why} on its ${dir}: later lines are not kept, but every line is still searched for the token` });
    };
    // Past the caps a line is no longer kept, but it is still read (a host must never block on a full pipe) and searched for the token (C8).
    const emit = (line: string): void => {
      const leaked = leaks(line, forms);
      if (lines < MAX_OUTPUT_LINES && bytes <= MAX_OUTPUT_BYTES) {
        lines++;
        rec.push({ dir, line: keptLine(line), ...(leaked.length ? { leaked } : {}) });
        return;
      }
      over(lines >= MAX_OUTPUT_LINES ? `more than ${MAX_OUTPUT_LINES} lines` : `more than ${MAX_OUTPUT_BYTES} bytes`);
      if (leaked.length > 0) {
        unkept++;
        for (const f of leaked) unkeptForms.add(f);
      }
    };
    stream.setEncoding("utf8");
    stream.on("data", (c: string) => {
      bytes += Buffer.byteLength(c);
      rest += c;
      const parts = rest.split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) emit(p.replace(/\r$/, ""));
      // A line that never ends: searched as it grows, and cut, keeping just enough of its end to find a token that spans the cut.
      if (rest.length > MAX_LINE_BYTES) {
        const leaked = leaks(rest, forms);
        if (leaked.length > 0) {
          unkept++;
          for (const f of leaked) unkeptForms.add(f);
        }
        over(`a line longer than ${MAX_LINE_BYTES} bytes`);
        rest = rest.slice(-(longest - 1));
      }
    });
    const done = (): void => {
      if (finished) return;
      finished = true;
      if (rest !== "") emit(rest);
      rest = "";
      if (unkept > 0)
        rec.push({ dir, line: `(not kept: ${unkept} ${unkept === 1 ? "line" : "lines"} past the output cap held the token)`, leaked: [...unkeptForms] });
      resolve();
    };
    stream.on("end", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/** One scenario with the host in this process: its output lines recorded as a process's would be, its end bounded the same way. */
async function runInProcess(spec: ScenarioSpec, o: HostRunOptions & { inProcess: InProcessHost }, secrets: RunSecrets, rec: Recorder): Promise<void> {
  const provider = inProcessProvider(spec.name as ScenarioName, secrets, rec, o.transport, spec.providers ?? 1);
  const forms = tokenForms(secrets);
  const dir = mkdtempSync(join(tmpdir(), "cgp-conform-host-"));
  trackDir(dir);
  try {
    const files = makeFiles(dir);
    await hostInProcess(spec, o, provider, files, forms, rec);
    recordFiles(files, rec, forms);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    untrackDir(dir);
  }
}

async function hostInProcess(
  spec: ScenarioSpec,
  o: HostRunOptions & { inProcess: InProcessHost },
  provider: ReturnType<typeof inProcessProvider>,
  files: HostFiles,
  forms: Array<[string, string]>,
  rec: Recorder,
): Promise<void> {
  let open = true;
  const kept = { stdout: 0, stderr: 0 };
  const line = (dir: "stdout" | "stderr") => (text: string) => {
    if (!open) return;
    for (const raw of text.split("\n")) {
      const l = raw.replace(/\r$/, "");
      const leaked = leaks(l, forms);
      if (kept[dir] >= MAX_OUTPUT_LINES && leaked.length === 0) continue;
      kept[dir]++;
      rec.push({ dir, line: keptLine(l), ...(leaked.length ? { leaked } : {}) });
    }
  };
  let targets = provider.targets;
  // A scenario that needs a non-loopback peer gets a URL on one: nothing serves it, and nothing goes there (the bindings are the stand-in's).
  if (spec.listen && o.transport === "http") {
    const url = `${spec.listen}://${urlHost(o.listen ?? STAND_IN_ADDRESS)}:1/`;
    targets = targets.map((target, i) => (i === 0 && target.kind === "http" ? { ...target, url } : target));
    rec.note({
      note: "listening",
      url,
      reason: "the scenario provider is reached in this process, through a stand-in: nothing serves this URL, and nothing is sent there",
    });
  }
  const ms = scenarioBoundMs(spec, o);
  // The host and its provider answer on this process's thread: what other work held it is not the host's time.
  const bound = scenarioBound(ms, o, loopClock);
  // A host that throws ends as a process that crashed would: with status 1.
  const run = o
    .inProcess({ target: targets[0]!, targets, files, bindings: provider.bindings, consent: spec.consent, print: line("stdout"), log: line("stderr") })
    .catch(() => 1);
  const outcome = await Promise.race([run, bound.reached]);
  bound.clear();
  if (outcome === "interrupted") {
    open = false;
    provider.cut();
  } else if (outcome === "hang") {
    rec.note({ note: "host-timeout", waitedMs: ms, reason: `the host did not end within ${ms} ms: it was stopped` });
    open = false;
    provider.cut();
    // A host that still does not return once everything it waited on has ended is left behind, not waited for.
    await Promise.race([run, new Promise((r) => setTimeout(r, 2000).unref())]);
  } else rec.note({ note: "host-exit", exitCode: outcome, signal: null });
}

/**
 * How long a host may take in a scenario: the run's bound, or the scenario's
 * floor where that is longer (crash-mid-query and stops-answering: a host
 * that bounds its reads is given its deadline there), `floorMs` standing in
 * for the floor where given.
 */
export function scenarioBoundMs(spec: ScenarioSpec, o: { timeoutMs: number; floorMs?: number }): number {
  const floor = boundFloorMs(spec);
  return Math.max(o.timeoutMs, floor === 0 ? 0 : (o.floorMs ?? floor));
}

/** The end of a scenario's time, `ms` on `clock`: its bound passed ("hang"), or a signal interrupted the run. `clear` when the host ended first. */
function scenarioBound(ms: number, o: { signal?: AbortSignal }, clock: Clock = wallClock): { reached: Promise<"hang" | "interrupted">; clear(): void } {
  const wait = after(ms, clock);
  let onAbort: (() => void) | undefined;
  const reached = new Promise<"hang" | "interrupted">((resolve) => {
    void wait.done.then(() => resolve("hang"));
    onAbort = () => resolve("interrupted");
    o.signal?.addEventListener("abort", onAbort, { once: true });
  });
  return {
    reached,
    clear() {
      wait.cancel();
      if (onAbort) o.signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** A scenario's bound of `ms` from the host's first contact with a provider (`contacted`); no contact within `startupMs` ends it too ("no-contact"). */
function boundFromContact(
  ms: number,
  startupMs: number,
  o: { signal?: AbortSignal },
  contacted: Promise<void>,
): { reached: Promise<"hang" | "no-contact" | "interrupted">; clear(): void } {
  const startup = scenarioBound(startupMs, o);
  let bound: ReturnType<typeof scenarioBound> | undefined;
  let cleared = false;
  const reached = new Promise<"hang" | "no-contact" | "interrupted">((resolve) => {
    void startup.reached.then((r) => resolve(r === "hang" ? "no-contact" : r));
    void contacted.then(() => {
      startup.clear();
      if (cleared) return;
      bound = scenarioBound(ms, o);
      void bound.reached.then(resolve);
    });
  });
  return {
    reached,
    clear() {
      cleared = true;
      startup.clear();
      bound?.clear();
    },
  };
}

function tokenForms(secrets: RunSecrets): Array<[string, string]> {
  return [
    ["raw", secrets.token],
    ["base64", Buffer.from(secrets.token).toString("base64")],
    ["hex", Buffer.from(secrets.token).toString("hex")],
  ];
}

async function runScenario(spec: ScenarioSpec, o: HostRunOptions, secrets: RunSecrets, rec: Recorder): Promise<void> {
  rec.begin(spec.name);
  if (o.inProcess) return runInProcess(spec, { ...o, inProcess: o.inProcess }, secrets, rec);
  if (spec.listen && o.listen === undefined && o.standIn) return runInProcess(spec, { ...o, inProcess: o.standIn }, secrets, rec);
  const dir = mkdtempSync(join(tmpdir(), "cgp-conform-host-"));
  trackDir(dir);
  const name = spec.name as ScenarioName;
  const peer =
    spec.listen && o.listen !== undefined ? { address: o.listen, ...(spec.listen === "https" ? { tls: await serverCertificate(o.listen) } : {}) } : undefined;
  const count = spec.providers ?? 1;
  const served = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      o.transport === "stdio" ? serveStdio(name, secrets, rec, dir, i, count) : serveHttp(name, secrets, rec, i, count, peer),
    ),
  );
  // The run's CA, in every scenario, so that a command holding {ca} means the same in each.
  const ca = join(dir, "ca.pem");
  writeFileSync(ca, (await runAuthority()).cert, { mode: 0o600 });
  const files = makeFiles(dir);
  const forms = tokenForms(secrets);
  const first = served[0]!.values;
  const providers = served.flatMap((s) => (s.values.provider ? [s.values.provider] : []));
  const urls = served.flatMap((s) => (s.values.url ? [s.values.url] : []));
  const argv = expand(o.command, { ...first, providers, urls, token: secrets.token, consent: spec.consent ?? "none", ca, ...files });
  // CGP_CONSENT is the scenario's alone: one inherited from cgp-conform's own environment must not grant the host anything.
  const env: Record<string, string | undefined> = {
    [HOST_ENV.token]: secrets.token,
    [HOST_ENV.scenario]: spec.name,
    [HOST_ENV.consent]: spec.consent,
    [HOST_ENV.ca]: ca,
    [HOST_ENV.context]: files.context,
    [HOST_ENV.usage]: files.usage,
  };
  if (first.provider) {
    env[HOST_ENV.command] = shellQuote(first.provider);
    env[HOST_ENV.argv] = JSON.stringify(first.provider);
    env[HOST_ENV.commands] = JSON.stringify(providers.map((p) => shellQuote(p)));
  }
  if (first.url) {
    env[HOST_ENV.url] = first.url;
    env[HOST_ENV.urls] = JSON.stringify(urls);
  }
  let spawned: number | undefined;
  const contacted = rec.contact();
  try {
    const child = execa(argv[0]!, argv.slice(1), {
      env,
      extendEnv: true,
      detached: true,
      buffer: false,
      reject: false,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      forceKillAfterDelay: false,
      windowsHide: true,
    });
    const pid = child.pid;
    spawned = pid;
    if (pid !== undefined) track(pid);
    const outputs = Promise.all([captureOutput(child.stdout, "stdout", rec, forms), captureOutput(child.stderr, "stderr", rec, forms)]);
    const ms = scenarioBoundMs(spec, o);
    const bound = o.startupMs === undefined ? scenarioBound(ms, o) : boundFromContact(ms, o.startupMs, o, contacted);
    // The host's end is its process's exit, not the close of its pipes: a provider it started may hold those open after it exits.
    const exited = new Promise<{ code: number | null; signal: string | null } | { error: string }>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (e) => resolve({ error: e.message }));
    });
    const outcome = await Promise.race([exited, bound.reached]);
    bound.clear();
    if (outcome === "interrupted") {
      if (pid !== undefined) killGroup(pid);
    } else if (outcome === "hang" || outcome === "no-contact") {
      const waitedMs = outcome === "hang" ? ms : o.startupMs!;
      const what =
        outcome === "hang"
          ? `did not end within ${ms} ms${o.startupMs === undefined ? "" : " of reaching its provider"}`
          : `reached no provider within ${waitedMs} ms`;
      rec.note({ note: "host-timeout", waitedMs, reason: `the host ${what}: it and its process group were killed` });
      if (pid !== undefined) killGroup(pid);
    } else if (pid === undefined || "error" in outcome) {
      const r = await Promise.race([child, new Promise<undefined>((res) => setTimeout(() => res(undefined), 2000).unref())]);
      rec.note({ note: "spawn-error", reason: redact(r?.shortMessage ?? r?.message ?? ("error" in outcome ? outcome.error : "spawn failed")) });
    } else {
      rec.note({ note: "host-exit", exitCode: outcome.code, signal: outcome.signal });
    }
    // What it printed last, read for at most a second more; then its process group (its provider, a relay, anything it left) is killed.
    await Promise.race([outputs, new Promise((r) => setTimeout(r, 1000))]);
    // The relay's last words (its exit, its end of input) arrive just after the host ends.
    await Promise.race([Promise.all(served.map((s) => s.idle())), new Promise((r) => setTimeout(r, SETTLE_MS))]);
    setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, 1000).unref();
    if (pid !== undefined) killGroup(pid);
    await Promise.race([child, new Promise((r) => setTimeout(r, 2000).unref())]);
  } finally {
    // Whatever happened above, the host's process group (its provider, the relay, anything it left) does not outlive the scenario.
    if (spawned !== undefined) {
      killGroup(spawned);
      untrack(spawned);
    }
    await Promise.all(served.map((s) => s.close()));
    recordFiles(files, rec, forms);
    rmSync(dir, { recursive: true, force: true });
    untrackDir(dir);
  }
}

let made: RunSecrets | undefined;

/**
 * The run's token and nonce, made once per process: a run is one process
 * (the selftest's host cases share one). The token is ours as much as the
 * host's: nothing cgp-conform writes may carry it, in any form.
 */
function runSecrets(): RunSecrets {
  if (made) return made;
  made = { token: randomBytes(24).toString("base64url"), nonce: randomBytes(4).toString("hex") };
  for (const [, form] of tokenForms(made)) registerSecret(form);
  return made;
}

/** Run every scenario, one after another, and return the host transcript. */
export async function runHost(o: HostRunOptions): Promise<HostTranscript> {
  const secrets = runSecrets();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const rec = new Recorder();
  const records: ScenarioRecord[] = [];
  const named = providersNamed(o.command, o.transport);
  const unservable = (s: ScenarioSpec): string | undefined => {
    const peer = s.listen && o.listen === undefined && !o.inProcess && !o.standIn;
    if (s.only && s.only !== o.transport)
      return `it runs over ${s.only} only, and the host command names ${o.transport === "stdio" ? "{provider}" : "{url}"}${peer ? "; with {url}, `--listen ADDR` enables it" : ""}`;
    if (peer) return "its provider is served on a non-loopback address of this machine: `--listen ADDR` enables it";
    const needs = s.providers ?? 1;
    if (needs <= named) return undefined;
    const missing = PROVIDER_PLACEHOLDERS[o.transport].slice(named, needs);
    const none = missing.length === 1 ? `no ${missing[0]}` : `neither ${missing.join(" nor ")}`;
    const list = o.transport === "stdio" ? HOST_ENV.commands : HOST_ENV.urls;
    return `it serves ${needs} providers, and the host command names ${none}: name ${missing.join(" and ")} where the host takes further providers (or name ${list} in the command line and read them from it)`;
  };
  const runnable = o.scenarios.filter((s) => unservable(s) === undefined);
  for (const s of o.scenarios) {
    const skipped = unservable(s);
    records.push({ name: s.name, transport: o.transport, ...(skipped ? { skipped } : {}), ...(s.providers ? { providers: s.providers } : {}) });
  }
  // A signal ends the scenario in progress (its host is killed as at the bound) and the run, which reports what it saw.
  let interrupted: NodeJS.Signals | undefined;
  const stop = new AbortController();
  const unregister = onInterrupt((sig) => {
    interrupted = sig;
    stop.abort();
  });
  try {
    for (const [i, s] of runnable.entries()) {
      if (interrupted) break;
      o.onScenario?.(s.name, i, runnable.length);
      await runScenario(s, { ...o, signal: stop.signal }, secrets, rec);
    }
  } finally {
    unregister();
  }
  if (interrupted) {
    // What a signal cut short, or kept from running, was not observed: its checks skip, they are not judged on half a scenario.
    const reached = new Set(rec.events.map((e) => e.scenario));
    const last = [...reached].pop();
    for (const r of records) {
      if (r.skipped) continue;
      if (r.name === last) r.skipped = `the run was interrupted by ${interrupted} while it ran`;
      else if (!reached.has(r.name)) r.skipped = `the run was interrupted by ${interrupted} before it ran`;
    }
  }
  rec.events.forEach((e, i) => (e.n = i + 2));
  return {
    header: {
      cgp_conform_host_transcript: 1,
      tool_version: VERSION,
      command: [...o.command],
      transport: o.transport,
      timeout_ms: o.timeoutMs,
      started_at: startedAt,
      duration_ms: Math.round(performance.now() - t0),
      scenarios: records,
      ...(interrupted ? { interrupted } : {}),
    },
    events: rec.events,
  };
}
