import { type CheckDef } from "../../checks/kit/check.ts";
import { score } from "../../src/engine/score.ts";
import { HOST_VERSION } from "../../src/math/version.ts";
import type { FileUnread, Transcript, TranscriptEvent } from "../../src/transcript/types.ts";
import { recordedLine } from "../../src/transcript/bytes.ts";
import { deriveRunFacts } from "../../src/transcript/run-facts.ts";
import { type CheckResult } from "../../src/verdict/status.ts";

type Ev = Omit<TranscriptEvent, "n" | "probe" | "session" | "t" | "step">;

/** Builds canned transcripts: one probe at a time, steps in order, as a session would record them. */
export class TranscriptBuilder {
  private events: Omit<TranscriptEvent, "n">[] = [];
  private probeName = "handshake";
  private sessionName = "handshake";
  private stepName = "start";
  private t = 0;

  /** Switch to a probe, in its own session unless a shared session's name is given. */
  probe(name: string, session = name): this {
    this.probeName = name;
    this.sessionName = session;
    this.stepName = "start";
    this.t = 0;
    return this;
  }

  private add(e: Ev): this {
    this.events.push({ probe: this.probeName, session: this.sessionName, t: (this.t += 5), step: this.stepName, ...e });
    return this;
  }

  /** Continue the transcript with a helper that builds more of it. */
  then(f: (b: this) => TranscriptBuilder): this {
    f(this);
    return this;
  }

  /** Enter a step without sending: what follows is recorded under it. */
  step(step: string): this {
    this.stepName = step;
    return this;
  }

  /** A send as the session records it: an envelope as JSON, a raw line as is, bytes that are not UTF-8 with line_hex. */
  send(step: string, env: object | string | Uint8Array): this {
    this.stepName = step;
    return this.add({ dir: "send", ...recordedLine(env instanceof Uint8Array || typeof env === "string" ? env : JSON.stringify(env)) });
  }

  recv(env: object | string): this {
    const line = typeof env === "string" ? env : JSON.stringify(env);
    return this.add({ dir: "recv", line, bytes: Buffer.byteLength(line) });
  }

  note(note: TranscriptEvent["note"], extra: Partial<Ev> = {}): this {
    return this.add({ dir: "note", note, ...extra });
  }

  /** A file event: a file:// URI, its path, and its bytes (base64), their digest (an earlier reading), or why they were not read. */
  file(f: { uri: string; path?: string; data?: string; sha256?: string; error?: string; unread?: FileUnread }): this {
    return this.add({ dir: "file", ...f });
  }

  /** The standard opening: handshake and an honest ack. */
  handshake(ack: object = ACK): this {
    return this.send("handshake", { type: "handshake", protocol_version: HOST_VERSION }).recv(ack);
  }

  build(): Transcript {
    const probes = [...new Set(this.events.map((e) => e.probe))];
    const sessions: Record<string, string[]> = {};
    for (const e of this.events) if (!(sessions[e.session] ??= []).includes(e.probe)) sessions[e.session]!.push(e.probe);
    const events = this.events.map((e, i) => ({ n: i + 2, ...e }));
    return {
      header: {
        cgp_conform_transcript: 1,
        tool_version: "0.0.0",
        host_version: HOST_VERSION,
        target: { kind: "stdio", command: ["canned"] },
        timeout_ms: 1000,
        probes,
        sessions,
        trust_roots: [],
        started_at: "2026-11-30T00:00:00Z",
        consent: { grants: [] },
        // As the recorder writes them: from the events.
        run_facts: deriveRunFacts(events),
      },
      events,
    };
  }

  scoreWith(check: CheckDef): CheckResult {
    return score(this.build(), [check])[0]!;
  }
}

export const tx = (): TranscriptBuilder => new TranscriptBuilder();

export const ACK = {
  type: "handshake_ack",
  protocol_version: HOST_VERSION,
  provider: { name: "canned", version: "1.0.0", data_flow: { reads: true, writes: false, egress: false } },
  capabilities: { query: { kinds: [] }, correlation: true },
};

export function frame(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "frm_1",
    kind: "doc",
    title: "A title",
    content: "abcd",
    score: 0.5,
    token_cost: 1,
    recorded_at: "2026-07-20T18:00:00Z",
    citation_label: "a.md",
    ...over,
  };
}

export function query(id: string, q: Record<string, unknown> = {}): object {
  return { type: "query", id, query: { goal: "g", kinds: [], anchors: [], max_frames: 64, max_tokens: 1_000_000, ...q } };
}

export function frames(id: string, fs: object[]): object {
  return { type: "frames", id, result: { frames: fs, truncated: false } };
}

/**
 * The two frame-serving probes (the frame checks read both): sample-query
 * serves `fs`, budget-squeeze gets no frames and so stops after its first query.
 */
export function served(fs: object[], q: Record<string, unknown> = {}): TranscriptBuilder {
  return emptySqueeze().probe("sample-query").handshake().send("sample", query("s1", q)).recv(frames("s1", fs));
}

export function emptySqueeze(b: TranscriptBuilder = tx()): TranscriptBuilder {
  return b.probe("budget-squeeze").handshake().send("generous", query("g1")).recv(frames("g1", []));
}

export function emptySample(b: TranscriptBuilder = tx()): TranscriptBuilder {
  return b.probe("sample-query").handshake().send("sample", query("s1")).recv(frames("s1", []));
}
