/**
 * A channel to one provider process (or HTTP endpoint): the connection, and
 * the record of every line sent and received and everything observed about
 * the process, in order, tagged with the probe and step that were current.
 * What the lines mean to each other (which reply answers which request) is
 * the session's (session.ts), which builds on this.
 */
import type { Connection, Target } from "../target/connection.ts";
import { HttpConnection } from "../target/http.ts";
import { StdioConnection } from "../target/stdio.ts";
import { InProcessConnection } from "../target/inproc.ts";
import { RUN_BUDGET_SPENT, type NoteKind } from "../transcript/types.ts";
import { knownParse } from "../transcript/view.ts";
import { framesIn, parseObj, type Obj } from "../protocol/envelope.ts";
import type { At, Pairing } from "./exchange.ts";
import { assertDeclared, START_STEP, type ProbeSpec } from "../protocol/probes.ts";
import { wallClock, type Clock } from "../target/clock.ts";
import { Inbox, type Item } from "./inbox.ts";
import { RunBudget, SESSION_MAX_LINES } from "./run-budget.ts";
import type { RecordedEvent, SessionOptions, Stall } from "./session-types.ts";

export abstract class Channel {
  readonly events: RecordedEvent[] = [];
  private readonly start = performance.now();
  protected readonly clock: Clock;
  protected current: string = START_STEP;
  private spec: ProbeSpec | undefined;
  protected probe: string;
  /** Where the provider first failed to answer in time, or its output ended. */
  protected stall: Stall | undefined;
  /** Lines received so far: until the first, the provider may still be starting. */
  private received = 0;
  protected readonly queue: Inbox;
  protected exited: { code: number | null; signal: string | null } | undefined;
  private exitWaiters: Array<() => void> = [];
  protected readonly conn: Connection;
  private killedByUs = false;
  private lines = 0;
  private flooded = false;
  private readonly budget: RunBudget;

  constructor(protected readonly opts: SessionOptions) {
    this.probe = opts.probe;
    this.clock = opts.clock ?? wallClock;
    this.queue = new Inbox(this.clock);
    this.budget = opts.budget ?? new RunBudget(opts.limits.maxLineBytes);
    const events = {
      line: (c: { text: string; bytes: number; overLong: boolean; status?: number; replyTo?: number }) => {
        if (this.flooded) return;
        // An over-long line is kept only in part (its first bytes): that part is what the run holds of it.
        const kept = c.overLong ? Buffer.byteLength(c.text) : c.bytes;
        // Parsed here, once, for the budget and for the pairing: a line's frames are what scoring it costs.
        // An over-long line was cut, so it holds no envelope.
        const env = c.overLong ? undefined : parseObj(c.text);
        const passed = this.budget.take(kept, framesIn(env).length);
        if (++this.lines > SESSION_MAX_LINES || passed !== undefined) {
          // Every line is kept in the transcript, so a provider that never stops writing is stopped.
          this.flooded = true;
          const reason =
            passed === undefined
              ? `more than ${SESSION_MAX_LINES} lines on stdout in one session: the provider was stopped`
              : `${RUN_BUDGET_SPENT}, across all its sessions: ${passed}; the provider was stopped`;
          this.note("flood", { reason });
          this.stall ??= { probe: this.probe, step: this.current, why: "the provider flooded its output", kind: "flood" };
          this.conn.kill();
          this.push({ kind: "end" });
          return;
        }
        this.received++;
        // Paired as it arrives, and recorded under the step of the line it answers: a late reply is still its request's.
        const { seq, pairing, at } = this.pair(env, c.replyTo);
        knownParse(
          this.record(
            {
              dir: "recv",
              line: c.text,
              bytes: c.bytes,
              ...(c.overLong ? { overLong: true } : {}),
              ...(c.status !== undefined ? { status: c.status } : {}),
              ...(seq !== undefined ? { reply_to: seq } : {}),
              ...(pairing && pairing.kind !== "answers" ? { pairing: pairing.kind } : {}),
            },
            at,
          ),
          env,
        );
        if (pairing?.kind === "answers") this.answered(pairing.seq, env!);
        this.push({ kind: "line", env, ...(c.replyTo !== undefined ? { replyTo: c.replyTo } : {}) });
      },
      stderr: (text: string) => this.record({ dir: "stderr", text }),
      resent: (replyTo: number, why: string) => this.note("resent", { reason: why, reply_to: replyTo }),
      httpError: (status: number, body: string, replyTo: number) => {
        const why = `the provider answered HTTP ${status} with ${body.trim() === "" ? "an empty body" : `a body that is no envelope: ${JSON.stringify(body.slice(0, 80))}`}`;
        // An error status is an answer: the provider is up.
        this.received++;
        this.note("http-error", { status, reason: why, reply_to: replyTo });
        this.answeredEmpty(replyTo, status);
        this.push({ kind: "http-error", why, replyTo });
      },
      eof: () => {
        this.note("eof");
        this.push({ kind: "end" });
      },
      exit: (code: number | null, signal: string | null) => {
        this.exited = { code, signal };
        this.note("exit", { exitCode: code, signal, ...(this.killedByUs ? { reason: "killed by cgp-conform" } : {}) });
        this.push({ kind: "end" });
        for (const w of this.exitWaiters.splice(0)) w();
      },
      unreachable: (kind: "spawn-error" | "connect-error", message: string) => {
        this.exited = { code: null, signal: null };
        this.stall = {
          probe: this.probe,
          step: this.current,
          why: kind === "spawn-error" ? "the provider could not be started" : message,
          kind: "unreachable",
        };
        this.note(kind, { reason: message });
        this.push({ kind: "end" });
        for (const w of this.exitWaiters.splice(0)) w();
      },
    };
    const t = opts.target;
    this.conn =
      t.kind === "http"
        ? new HttpConnection(t, opts.limits, events)
        : t.inProcess
          ? new InProcessConnection(t.inProcess(), opts.limits, events)
          : new StdioConnection(t, opts.limits, events);
    opts.signal.addEventListener("abort", () => this.queue.wake(), { once: true });
  }

  get transport(): Target["kind"] {
    return this.opts.target.kind;
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  get aborted(): boolean {
    return this.opts.signal.aborted;
  }

  /** Hand the session to the next probe. */
  enter(probe: ProbeSpec): void {
    this.spec = probe;
    this.probe = probe.name;
    this.current = START_STEP;
  }

  /** Why the session can no longer be trusted to answer, if it cannot. */
  get stalled(): Stall | undefined {
    return this.stall;
  }

  /** Whether the provider has sent anything yet. */
  get heard(): boolean {
    return this.received > 0;
  }

  /** Record that a fresh session's canary query went unanswered, and so the group stops. */
  noteCanary(why: string): void {
    this.note("canary", { reason: `${why} to a valid query sent before any stimulus, so no further session of these probes was started` });
  }

  /** Record that a probe was skipped, and why. */
  abandon(probe: ProbeSpec, reason: string): void {
    this.enter(probe);
    this.note("abandoned", { reason });
  }

  /** Enter a named step: what follows is recorded under it. */
  step(name: string): void {
    if (this.spec) assertDeclared(this.spec, name);
    this.current = name;
  }

  /** Record a line a probe chose not to send, and why: it is not a write, and never counts as one. */
  notSent(step: string, envelope: Obj, reason: string): void {
    this.step(step);
    this.note("unsent", { line: JSON.stringify(envelope), reason });
  }

  /** The absolute time by which an exchange starting now must be answered: later while the provider has sent nothing yet. */
  deadline(): number {
    return this.clock.now() + (this.received === 0 ? Math.max(this.opts.timeoutMs, this.opts.startupMs ?? 0) : this.opts.timeoutMs);
  }

  /** Wait for the process to exit by itself; undefined if it has not within `ms`. */
  async waitExit(ms: number): Promise<{ code: number | null; signal: string | null } | undefined> {
    if (!this.exited) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        this.exitWaiters.push(done);
        this.opts.signal.addEventListener("abort", done, { once: true });
      });
    }
    return this.exited;
  }

  /** End the session: close stdin, kill the group if still alive, reap it. */
  async close(): Promise<void> {
    this.ending();
    this.conn.endInput();
    if (!this.exited && this.opts.target.kind === "stdio") {
      this.killedByUs = true;
      this.note("killed", { reason: "the probe had finished and the provider was still running" });
    }
    this.conn.kill();
    await this.conn.done;
  }

  /** Kill the provider now, recording why. */
  async kill(reason: string): Promise<void> {
    if (!this.exited) {
      this.killedByUs = true;
      this.note("killed", { reason });
    }
    this.conn.kill();
    await this.conn.done;
  }

  protected deadlinePassed(): boolean {
    if (!this.opts.signal.aborted) return false;
    const reason = this.opts.signal.reason;
    if (!this.events.some((e) => e.note === "deadline")) this.note("deadline", typeof reason === "string" ? { reason } : {});
    return true;
  }

  protected push(item: Item): void {
    this.queue.push(item);
  }

  protected note(note: NoteKind, extra: Partial<RecordedEvent> = {}, at?: { probe: string; step: string }): void {
    this.record({ dir: "note", note, ...extra }, at);
  }

  protected record(e: Omit<RecordedEvent, "probe" | "session" | "t" | "step">, at?: { probe: string; step: string }): RecordedEvent {
    const t = Math.round(performance.now() - this.start);
    const event = { probe: at?.probe ?? this.probe, session: this.opts.name, t, step: at?.step ?? this.current, ...e };
    this.events.push(event);
    return event;
  }

  /** Which line a reply answers (or is attributed to), and the probe and step to record it under. */
  protected abstract pair(env: Obj | undefined, replyTo: number | undefined): { seq?: number; pairing?: Pairing; at?: At };
  /** Write `seq` was answered by `env`. */
  protected abstract answered(seq: number, env: Obj): void;
  /** Write `seq` was answered over HTTP with an error status and no envelope. */
  protected abstract answeredEmpty(seq: number, status: number): void;
  /** The session is ending: what it knows of its lines is recorded. */
  protected abstract ending(): void;
}
