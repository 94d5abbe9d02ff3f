/**
 * The record of a host run (`cgp-conform host`): per scenario, every line the
 * host under test wrote to the scenario provider (or to each, where a scenario
 * has several), every line that provider answered, what the host printed on
 * its own stdout and stderr, the lines it wrote to {context} and {usage}, and
 * how the host ended. Host checks read it through HostView; nothing else does.
 */
import { isObj, parseObj, type Obj } from "../protocol/envelope.ts";
import { PROVIDER_PLACEHOLDERS, SCENARIOS, type ScenarioName, type ScenarioSpec } from "../protocol/host-scenarios.ts";

/** context / usage: a line the host wrote to {context} or {usage}, read after it ended. */
export type HostDirection = "host" | "provider" | "stdout" | "stderr" | "note" | "context" | "usage";

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
  | "tls-failed" // a connection the host opened to the scenario provider closed before its TLS handshake completed: reason
  | "unreadable"; // {context} or {usage} could not be read after the host ended (gone, or no longer a plain file): reason

export interface HostEvent {
  /** Line number of this event in the saved host transcript (the header is line 1). */
  n: number;
  scenario: string;
  /** Milliseconds since the scenario started. */
  t: number;
  dir: HostDirection;
  /**
   * host / provider: the line without its newline (a prefix when over the cap); stdout / stderr: one line the host printed;
   * context / usage: one line of the file, without its newline (a prefix when over the cap).
   */
  line?: string;
  /** host, context, usage: the line's length in bytes, as received. */
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
  /**
   * Which of the scenario's providers the event is of: 0 for {provider} ({url}),
   * 1 for {provider2}, 2 for {provider3}. Only in a scenario with more than one;
   * what the host printed or wrote to a file, and how it ended, belong to no one provider.
   */
  provider?: number;
  note?: HostNoteKind;
  exitCode?: number | null;
  signal?: string | null;
  waitedMs?: number;
  /** host-timeout: false where the host was killed having reached no provider within its startup allowance. */
  contact?: boolean;
  reason?: string;
  /** listening: the URL the scenario provider is served on. */
  url?: string;
}

export interface ScenarioRecord {
  name: string;
  transport: "stdio" | "http";
  /** Why the scenario was not run (it needs the other transport, or providers the command does not name). */
  skipped?: string;
  /** How many providers the scenario serves, where more than one. */
  providers?: number;
}

export interface HostTranscriptHeader {
  cgp_conform_host_transcript: 1;
  tool_version: string;
  /** The host command line as given, placeholders unexpanded (so no token is in it). */
  command: string[];
  transport: "stdio" | "http";
  /** How long a host may take in one scenario before it is killed (a hang); crash-mid-query and stops-answering may have a floor above it (each host-timeout note gives the bound it waited). */
  timeout_ms: number;
  started_at: string;
  duration_ms?: number;
  scenarios: ScenarioRecord[];
  interrupted?: string;
  /** Whether the run could be made, as the host run saw it (host-run-facts.ts): a host that never started, or never reached its provider. */
  run_facts: HostRunFacts;
}

/** The facts that decide whether a host run could be made, as the host run wrote them (host-run-facts.ts). */
export interface HostRunFacts {
  /** In every scenario that ran, the host could not be started, or its command exited 126 or 127 (the shell's) before reaching its provider. */
  never_started?: { how: "spawn-error"; error: string } | { how: "exit"; exit_code: 126 | 127 };
  /** In no scenario that ran did the host reach the provider it was given. */
  never_connected?: true;
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
  | { kind: "hang"; waitedMs: number; n: number; t: number; noContact?: true }
  | { kind: "spawn-error"; reason: string; n: number; t: number }
  | { kind: "unknown"; n: number; t: number };

/** One line the host wrote to {context} or {usage}: `value` the JSON it holds, undefined where it holds none (or was over the cap). */
export interface HostFileLine {
  n: number;
  t: number;
  line: string;
  overLong: boolean;
  value: unknown;
}

/** A line of {context}: `text` the block, where the line is a JSON object whose text is a string. */
export interface ContextBlock extends HostFileLine {
  text: string | undefined;
}

/** The events that belong to the scenario rather than to one of its providers. */
const SCENARIO_WIDE = new Set(["host-exit", "host-timeout", "spawn-error", "over-cap", "unreadable"]);

/** What a host check sees of one scenario (or of one of its providers: `provider`). Read-only, pure. */
export class HostView {
  readonly spec: ScenarioSpec;
  readonly record: ScenarioRecord | undefined;
  readonly events: readonly HostEvent[];
  /** In a view of one provider of a scenario with several: which one (0 for the first). */
  readonly provider: number | undefined;

  constructor(spec: ScenarioSpec, record: ScenarioRecord | undefined, events: readonly HostEvent[], provider?: number) {
    this.spec = spec;
    this.record = record;
    this.events = events;
    this.provider = provider;
  }

  /** The scenario's name; a view of one of several providers adds that provider's placeholder: "compose ({provider2})". */
  get name(): string {
    if (this.provider === undefined) return this.spec.name;
    return `${this.spec.name} (${PROVIDER_PLACEHOLDERS[this.record?.transport ?? "stdio"][this.provider]})`;
  }

  /** How many providers the scenario serves. */
  get providerCount(): number {
    return this.record?.providers ?? this.spec.providers ?? 1;
  }

  /**
   * One view per provider the scenario serves: the lines exchanged with it and
   * its notes, and how the host ended; what the host printed and wrote to a
   * file goes with the first, so a check reading every view reads it once.
   * A scenario with one provider is its own only view.
   */
  providers(): HostView[] {
    if (this.provider !== undefined || this.providerCount === 1) return [this];
    return Array.from({ length: this.providerCount }, (_, i) => {
      const mine = this.events.filter((e) => {
        if (e.dir === "host" || e.dir === "provider") return (e.provider ?? 0) === i;
        if (e.dir === "note") return SCENARIO_WIDE.has(e.note ?? "") || (e.provider ?? 0) === i;
        return i === 0;
      });
      return new HostView(this.spec, this.record, mine, i);
    });
  }

  /** The lines the host wrote to one of its files, in order. */
  fileLines(file: "context" | "usage"): HostFileLine[] {
    return this.events
      .filter((e) => e.dir === file)
      .map((e) => {
        const line = e.line ?? "";
        let value: unknown;
        if (!e.overLong) {
          try {
            value = JSON.parse(line);
          } catch {
            value = undefined;
          }
        }
        return { n: e.n, t: e.t, line, overLong: e.overLong === true, value };
      });
  }

  /** The lines of {context}: each a block where it is {"text": "<the block>"} (other members ignored). */
  context(): ContextBlock[] {
    return this.fileLines("context").map((l) => ({ ...l, text: isObj(l.value) && typeof l.value.text === "string" ? l.value.text : undefined }));
  }

  /** The lines of {usage}: each a usage report, where it is a JSON object. */
  usage(): HostFileLine[] {
    return this.fileLines("usage");
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
    if (hang) return { kind: "hang", waitedMs: hang.waitedMs ?? 0, n: hang.n, t: hang.t, ...(hang.contact === false ? { noContact: true as const } : {}) };
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
      // What the host said last on stderr is most often why: a usage error, an unreachable provider, its own timeout.
      const said = this.events.filter((e) => e.dir === "stderr" && typeof e.line === "string" && e.line.trim() !== "").at(-1);
      const last = said ? `; its last line on stderr (line ${said.n}): ${JSON.stringify(said.line!.trim().slice(0, 200))}` : "";
      return {
        message: `scenario ${this.name}: the host sent the provider nothing (it ${how}${last}), so what it would send could not be observed; does its command line hold {provider} or {url}?`,
        lines: said ? [end.n, said.n] : [end.n],
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
      return e.noContact
        ? `reached no provider within ${e.waitedMs} ms (--startup-timeout) and was killed`
        : `did not end within ${e.waitedMs} ms and was killed`;
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
