/**
 * The record of a host run (`cgp-conform host`): per scenario, every line the
 * host under test wrote to the scenario provider, every line that provider
 * answered, what the host printed on its own stdout and stderr, and how the
 * host ended. Host checks read it through HostView; nothing else does.
 */
import { parseObj, type Obj } from "../protocol/envelope.ts";
import { SCENARIOS, type ScenarioName, type ScenarioSpec } from "../protocol/host-scenarios.ts";

export type HostDirection = "host" | "provider" | "stdout" | "stderr" | "note";

export type HostNoteKind =
  | "connected" // the host started the scenario provider ({provider}) or made its first request ({url})
  | "eof" // the host closed the provider's input
  | "provider-exit" // the scenario provider ended (status in exitCode): on shutdown, on end of input, or by the scenario (a crash)
  | "dropped" // HTTP: the scenario dropped the connection without an answer (a crash)
  | "withheld" // the scenario provider received a request it does not answer (it stops answering)
  | "unauthorized" // HTTP: a request without the run's bearer token was refused with 401
  | "host-exit" // the host process ended: exitCode, signal
  | "host-timeout" // the host did not end within the bound and was killed: waitedMs
  | "spawn-error" // the host command could not be started: reason
  | "over-cap" // the host wrote more than a scenario records (lines or bytes): the rest was not kept
  | "listening" // the scenario provider is served off loopback, on the --listen address: url
  | "tls-failed"; // a connection the host opened to the scenario provider closed before its TLS handshake completed: reason

export interface HostEvent {
  /** Line number of this event in the saved host transcript (the header is line 1). */
  n: number;
  scenario: string;
  /** Milliseconds since the scenario started. */
  t: number;
  dir: HostDirection;
  /** host / provider: the line without its newline (a prefix when over the cap); stdout / stderr: one line the host printed. */
  line?: string;
  /** host: the line's length in bytes, as received. */
  bytes?: number;
  overLong?: boolean;
  /** host, over HTTP: what the request's Authorization header held. */
  auth?: "none" | "run-token" | "other";
  /** provider, over HTTP: the response status. */
  status?: number;
  /**
   * stdout / stderr: the run's bearer token was in this line, in these forms
   * (the line itself is recorded with the token redacted: cgp-conform never
   * writes the token out either).
   */
  leaked?: string[];
  note?: HostNoteKind;
  exitCode?: number | null;
  signal?: string | null;
  waitedMs?: number;
  reason?: string;
  /** listening: the URL the scenario provider is served on. */
  url?: string;
}

export interface ScenarioRecord {
  name: string;
  transport: "stdio" | "http";
  /** Why the scenario was not run (it needs the other transport). */
  skipped?: string;
}

export interface HostTranscriptHeader {
  cgp_conform_host_transcript: 1;
  tool_version: string;
  /** The host command line as given, placeholders unexpanded (so no token is in it). */
  command: string[];
  transport: "stdio" | "http";
  /** How long a host may take in one scenario before it is killed (a hang). */
  timeout_ms: number;
  started_at: string;
  duration_ms?: number;
  scenarios: ScenarioRecord[];
  interrupted?: string;
}

export interface HostTranscript {
  header: HostTranscriptHeader;
  events: HostEvent[];
}

/** One envelope the host sent, or the scenario provider answered, with its transcript line. */
export interface HostEnvelope {
  n: number;
  t: number;
  env: Obj;
}

/** How the host ended in a scenario. */
export type HostEnding =
  | { kind: "exit"; code: number; n: number; t: number }
  | { kind: "signal"; signal: string; n: number; t: number }
  | { kind: "hang"; waitedMs: number; n: number; t: number }
  | { kind: "spawn-error"; reason: string; n: number; t: number }
  | { kind: "unknown"; n: number; t: number };

/** What a host check sees of one scenario. Read-only, pure. */
export class HostView {
  readonly spec: ScenarioSpec;
  readonly record: ScenarioRecord | undefined;
  readonly events: readonly HostEvent[];

  constructor(spec: ScenarioSpec, record: ScenarioRecord | undefined, events: readonly HostEvent[]) {
    this.spec = spec;
    this.record = record;
    this.events = events;
  }

  get name(): string {
    return this.spec.name;
  }

  /** Whether the scenario ran (it was selected and its transport was the host's). */
  get ran(): boolean {
    return this.record !== undefined && this.record.skipped === undefined;
  }

  /** Every line the host wrote to the provider, parsed where it is a JSON object (env undefined where not). */
  lines(): Array<{ n: number; t: number; line: string; overLong: boolean; env: Obj | undefined; auth?: HostEvent["auth"] }> {
    return this.events
      .filter((e) => e.dir === "host")
      .map((e) => ({
        n: e.n,
        t: e.t,
        line: e.line ?? "",
        overLong: e.overLong === true,
        env: e.overLong ? undefined : parseObj(e.line),
        ...(e.auth ? { auth: e.auth } : {}),
      }));
  }

  /** The envelopes the host sent (JSON objects with a string type), optionally of one type. */
  sent(type?: string): HostEnvelope[] {
    return this.lines()
      .filter((l): l is typeof l & { env: Obj } => l.env !== undefined && typeof l.env.type === "string" && (type === undefined || l.env.type === type))
      .map(({ n, t, env }) => ({ n, t, env }));
  }

  /** The envelopes the scenario provider answered with, optionally of one type. */
  answered(type?: string): HostEnvelope[] {
    return this.events
      .filter((e) => e.dir === "provider")
      .map((e) => ({ n: e.n, t: e.t, env: parseObj(e.line) }))
      .filter((a): a is HostEnvelope => a.env !== undefined && (type === undefined || a.env.type === type));
  }

  /** The handshake_ack the scenario provider sent, if it sent one. */
  ack(): HostEnvelope | undefined {
    return this.answered("handshake_ack")[0];
  }

  /** What the host printed on its own stdout and stderr, a line each (the token redacted). */
  output(): HostEvent[] {
    return this.events.filter((e) => e.dir === "stdout" || e.dir === "stderr");
  }

  notes(kind: HostNoteKind): HostEvent[] {
    return this.events.filter((e) => e.note === kind);
  }

  /** How the host process ended. */
  ending(): HostEnding {
    const last = this.events[this.events.length - 1];
    const at = { n: last?.n ?? 0, t: last?.t ?? 0 };
    const spawn = this.notes("spawn-error")[0];
    if (spawn) return { kind: "spawn-error", reason: spawn.reason ?? "", n: spawn.n, t: spawn.t };
    const hang = this.notes("host-timeout")[0];
    if (hang) return { kind: "hang", waitedMs: hang.waitedMs ?? 0, n: hang.n, t: hang.t };
    const exit = this.notes("host-exit")[0];
    if (exit?.signal) return { kind: "signal", signal: exit.signal, n: exit.n, t: exit.t };
    if (exit && typeof exit.exitCode === "number") return { kind: "exit", code: exit.exitCode, n: exit.n, t: exit.t };
    return { kind: "unknown", ...at };
  }

  /**
   * Why nothing the host did in this scenario can be judged, if so: it could
   * not be started, or it never reached the provider it was given.
   */
  brokenPrecondition(): { message: string; lines: number[] } | undefined {
    if (!this.ran) return undefined;
    const end = this.ending();
    if (end.kind === "spawn-error") return { message: `scenario ${this.name}: the host could not be started: ${end.reason}`, lines: [end.n] };
    // A provider off loopback is one an honest host may refuse before any byte leaves (C4, C7), so sending it nothing is an answer there, judged against lock-step.
    if (this.lines().length === 0 && this.spec.listen === undefined) {
      const how = describeEnding(end);
      return {
        message: `scenario ${this.name}: the host sent the provider nothing (it ${how}), so what it would send could not be observed; does its command line hold {provider} or {url}?`,
        lines: [end.n],
      };
    }
    return undefined;
  }
}

/** A host's ending, in words: "exited with status 1", "was killed after 10000 ms (it did not end on its own)". */
export function describeEnding(e: HostEnding): string {
  switch (e.kind) {
    case "exit":
      return `exited with status ${e.code}`;
    case "signal":
      return `was ended by ${e.signal}`;
    case "hang":
      return `did not end within ${e.waitedMs} ms and was killed`;
    case "spawn-error":
      return `could not be started (${e.reason})`;
    case "unknown":
      return "ended in no way the run recorded";
  }
}

/** The views of a host transcript, by scenario. */
export function hostViews(t: HostTranscript): (spec: ScenarioSpec) => HostView {
  const by = new Map<string, HostEvent[]>();
  for (const e of t.events) {
    let list = by.get(e.scenario);
    if (!list) by.set(e.scenario, (list = []));
    list.push(e);
  }
  const views = new Map<string, HostView>();
  return (spec) => {
    if (!SCENARIOS.some((s) => s.name === spec.name)) throw new Error(`no scenario named ${spec.name}`);
    let v = views.get(spec.name);
    if (!v) {
      v = new HostView(
        spec,
        t.header.scenarios.find((s) => s.name === spec.name),
        by.get(spec.name) ?? [],
      );
      views.set(spec.name, v);
    }
    return v;
  };
}

export type { ScenarioName };
