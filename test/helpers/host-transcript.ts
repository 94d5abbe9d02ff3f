/**
 * Canned host transcripts for host-check tests: one scenario at a time, lines
 * numbered from 2 (the header is line 1) in the order they are added, the
 * header's scenario records kept as the runner would write them.
 */
import { deriveHostRunFacts } from "../../src/transcript/host-run-facts.ts";
import { readFileSync } from "node:fs";
import t from "tap";
import type { HostCheckDef } from "../../checks/kit/host.ts";
import { scoreHost } from "../../src/host/score.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import type { HostEvent, HostNoteKind, HostTranscript, ScenarioRecord } from "../../src/transcript/host.ts";
import type { CheckResult, Status } from "../../src/verdict/status.ts";
import { applyStrict } from "../../src/verdict/strict.ts";
import { codesKnown } from "./codes.ts";

type Obj = Record<string, unknown>;

/** The baseline scenario provider's ack: no correlation, no verify, no fingerprint; full and compact. */
export const ACK = {
  type: "handshake_ack",
  protocol_version: "contextgraph/1.0",
  provider: { name: "cgp-conform-scenario", version: "0.1.0", data_flow: { reads: true, writes: false, egress: false } },
  capabilities: { query: { kinds: ["doc", "snippet"] }, representations: ["full", "compact"], resolve: true },
};

/** The baseline ack with capabilities added (or, as undefined, removed). */
export function ackWith(caps: Obj = {}, extra: Obj = {}): Obj {
  const capabilities: Obj = { ...ACK.capabilities, ...caps };
  for (const [k, v] of Object.entries(caps)) if (v === undefined) delete capabilities[k];
  return { ...ACK, capabilities, ...extra };
}

/** The baseline ack with this data_flow. */
export function ackFlow(dataFlow: Obj): Obj {
  return { ...ACK, provider: { ...ACK.provider, data_flow: dataFlow } };
}

export function handshake(version: unknown = HOST_VERSION, extra: Obj = {}): Obj {
  return { type: "handshake", protocol_version: version, ...extra };
}

export function query(extra: Obj = {}, envelope: Obj = {}): Obj {
  return { type: "query", query: { goal: "how does retry work", max_frames: 5, max_tokens: 2000, ...extra }, ...envelope };
}

export function frame(extra: Obj = {}): Obj {
  return {
    id: "fixture:retry-doc",
    kind: "doc",
    title: "Retry behaviour",
    content: "Retry with backoff.",
    uri: "file:///repo/docs/retry.md",
    score: 0.8,
    token_cost: 5,
    provenance: [],
    citation_label: "retry.md",
    relations: [],
    content_digest: `sha256:${"a".repeat(64)}`,
    ...extra,
  };
}

export function frames(list: Obj[] = [frame()]): Obj {
  return { type: "frames", result: { frames: list, truncated: false } };
}

export function error(code: string): Obj {
  return { type: "error", code, message: `a ${code} error` };
}

export const SHUTDOWN = { type: "shutdown" };

/** Notes of the scenario, not of one of its providers. */
const SCENARIO_WIDE: readonly string[] = ["host-exit", "host-timeout", "spawn-error", "over-cap", "unreadable"];

export type Ending = { code: number } | { signal: string } | { hang: number } | { spawnError: string };

export class HostTranscriptBuilder {
  private readonly events: HostEvent[] = [];
  private readonly records: ScenarioRecord[] = [];
  private current = "lock-step";
  private t = 0;
  /** The provider the next exchange is with, in a scenario with several. */
  private of: number | undefined;
  private command = ["canned-host", "{provider}"];

  constructor(readonly transport: "stdio" | "http" = "stdio") {}

  /** The host command line the header names (placeholders unexpanded). */
  commandLine(command: string[]): this {
    this.command = command;
    return this;
  }

  /** Exchange with provider `i` of the scenario (0: the first) from here on. */
  provider(i: number): this {
    this.of = i;
    return this;
  }

  /** A line the host wrote to {context}: a block, or any text. */
  context(block: string | object): this {
    const line = typeof block === "string" ? JSON.stringify({ text: block }) : JSON.stringify(block);
    return this.add({ dir: "context", line, bytes: Buffer.byteLength(line) });
  }

  /** A line the host wrote to {context} as written (not JSON, perhaps). */
  contextLine(line: string): this {
    return this.add({ dir: "context", line, bytes: Buffer.byteLength(line) });
  }

  /** A line the host wrote to {usage}: a report, or any text as written. */
  usage(report: object | string, extra: Partial<Pick<HostEvent, "overLong">> = {}): this {
    const line = typeof report === "string" ? report : JSON.stringify(report);
    return this.add({ dir: "usage", line, bytes: Buffer.byteLength(line), ...extra });
  }

  /** The line number the next event will get. */
  get next(): number {
    return this.events.length + 2;
  }

  /** Switch to a scenario (recorded as run, or as skipped with a reason); one of several providers is given as `providers`. */
  scenario(name: string, opts: { skipped?: string; providers?: number } = {}): this {
    this.current = name;
    this.t = 0;
    this.of = opts.providers !== undefined ? 0 : undefined;
    this.records.push({
      name,
      transport: this.transport,
      ...(opts.skipped !== undefined ? { skipped: opts.skipped } : {}),
      ...(opts.providers !== undefined ? { providers: opts.providers } : {}),
    });
    return this;
  }

  /** Let `ms` milliseconds pass before the next event (each event is otherwise 5 ms after the last). */
  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  private add(e: Omit<HostEvent, "n" | "scenario" | "t">): this {
    const tagged = this.of !== undefined && (e.dir === "host" || e.dir === "provider" || (e.dir === "note" && !SCENARIO_WIDE.includes(e.note!)));
    this.events.push({ n: this.next, scenario: this.current, t: (this.t += 5), ...e, ...(tagged ? { provider: this.of } : {}) });
    return this;
  }

  /** A line the host wrote to the provider (over HTTP, a request body carrying the run's token unless told otherwise). */
  send(env: object | string, extra: Partial<Pick<HostEvent, "auth" | "overLong" | "bytes">> = {}): this {
    const line = typeof env === "string" ? env : JSON.stringify(env);
    return this.add({
      dir: "host",
      line,
      bytes: Buffer.byteLength(line),
      ...(this.transport === "http" ? { auth: "run-token" as const } : {}),
      ...extra,
    });
  }

  /** A line the scenario provider answered. */
  answer(env: object | string): this {
    return this.add({ dir: "provider", line: typeof env === "string" ? env : JSON.stringify(env), ...(this.transport === "http" ? { status: 200 } : {}) });
  }

  ack(env: object = ACK): this {
    return this.answer(env);
  }

  /** The host's handshake and the provider's ack. */
  handshake(ack: object = ACK, version: unknown = HOST_VERSION): this {
    return this.send(handshake(version)).ack(ack);
  }

  /** A line the host printed on its own stdout or stderr (leaked: the forms the run's token was found in). */
  print(stream: "stdout" | "stderr", text: string, leaked?: string[]): this {
    return this.add({ dir: stream, line: text, ...(leaked ? { leaked } : {}) });
  }

  note(note: HostNoteKind, extra: Partial<HostEvent> = {}): this {
    return this.add({ dir: "note", note, ...extra });
  }

  /** How the host ended. */
  end(e: Ending = { code: 0 }): this {
    if ("hang" in e) return this.note("host-timeout", { waitedMs: e.hang }).note("host-exit", { exitCode: null, signal: "SIGKILL" });
    if ("signal" in e) return this.note("host-exit", { exitCode: null, signal: e.signal });
    if ("spawnError" in e) return this.note("spawn-error", { reason: e.spawnError });
    return this.note("host-exit", { exitCode: e.code, signal: null });
  }

  /** An honest host's ordinary piece of work: handshake, one query, shutdown, exit 0. */
  honest(ack: object = ACK, answer: object = frames()): this {
    return this.handshake(ack).send(query()).answer(answer).send(SHUTDOWN).end({ code: 0 });
  }

  build(): HostTranscript {
    return {
      header: {
        cgp_conform_host_transcript: 1,
        tool_version: "0.0.0",
        command: this.command,
        transport: this.transport,
        timeout_ms: 1000,
        started_at: "2026-11-30T00:00:00Z",
        scenarios: this.records,
        // As the host run writes them: from the events.
        run_facts: deriveHostRunFacts(this.records, this.events),
      },
      events: this.events,
    };
  }

  score(check: HostCheckDef): CheckResult {
    return scoreHost(this.build(), [check])[0]!;
  }
}

export function hostTx(transport: "stdio" | "http" = "stdio"): HostTranscriptBuilder {
  return new HostTranscriptBuilder(transport);
}

export interface HostCase {
  name: string;
  build: () => HostTranscriptBuilder;
  status: Status;
  untestable?: boolean;
  /** Every pattern must match some evidence message (or, for skip, the reason). */
  says?: RegExp[];
  /** Patterns no evidence message may match. */
  never?: RegExp[];
  /** Codes some evidence must carry (qualified, as host:H4.not-echoed). */
  codes?: string[];
  /** Lines some non-passing evidence must point at (for a pass, some evidence). */
  lines?: number[];
  /** The status under --strict, which promotes a SHOULD's warning and leaves one for an outcome stated with no keyword. */
  strict?: Status;
}

/** The doc comment directly above `export default defineHostCheck`, as one line of text. */
export function hostScoringNote(source: string): string | undefined {
  const m = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export default defineHostCheck/.exec(source);
  return m
    ? m[1]!
        .split("\n")
        .map((l) => l.replace(/^\s*\* ?/, "").trimEnd())
        .join(" ")
        .replace(/\s+/g, " ")
        .trim()
    : undefined;
}

/** Table-driven host-check tests over canned host transcripts, plus the check's own shape. */
export function runHostCases(check: HostCheckDef, cases: HostCase[]): void {
  t.test(check.id, async (t) => {
    t.test("its definition", async (t) => {
      const file = check.id.slice("host:".length);
      t.equal(check.id, `host:${check.anchor}`, "the id is host: and the anchor");
      const source = readFileSync(new URL(`../../checks/host/${file}.ts`, import.meta.url), "utf8");
      const note = hostScoringNote(source);
      t.ok(note, "a doc comment sits directly above defineHostCheck");
      for (const s of check.scenarios) t.match(note ?? "", s.name, `the scoring note names scenario ${s.name}`);
    });
    for (const c of cases) {
      t.test(c.name, async (t) => {
        const r = c.build().score(check);
        const text = [r.reason ?? "", ...r.evidence.map((e) => [e.message, e.expected, e.actual].join(" | "))].join("\n");
        t.equal(r.status, c.status, `status is ${c.status}`, { text });
        t.equal(r.untestable, c.untestable ?? false, "untestable flag", { text });
        if (c.strict !== undefined) t.equal(applyStrict([r])[0]!.status, c.strict, `under --strict: ${c.strict}`, { text });
        for (const re of c.says ?? []) t.match(text, re);
        for (const re of c.never ?? []) t.notMatch(text, re);
        codesKnown(t, check, r);
        const codes = new Set(r.evidence.map((e) => e.code));
        for (const code of c.codes ?? []) t.ok(codes.has(code), `a finding coded ${code}`, { found: [...codes] });
        if (r.status !== "skip") t.ok(r.evidence.length > 0, "a verdict always carries evidence");
        for (const e of r.evidence.filter((e) => !e.ok && !e.untestable)) t.ok(e.lines.length > 0, `failing evidence points at transcript lines: ${e.message}`);
        if (c.lines) {
          const pool = r.evidence.filter((e) => (c.status === "pass" ? true : !e.ok));
          const seen = new Set(pool.flatMap((e) => e.lines));
          for (const n of c.lines) {
            t.ok(seen.has(n), `evidence points at line ${n}`, { text });
            t.ok(
              pool.some((e) => new RegExp(`\\blines? (\\d+(, |–))*${n}\\b`).test(e.message)),
              `a message names line ${n}`,
              { text },
            );
          }
        }
      });
    }
  });
}
