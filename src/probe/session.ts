/**
 * The session: what is sent, what comes back, and when an exchange has waited long enough. Its
 * options and what it records are in session-types.ts, the bounds on what it keeps in run-budget.ts.
 */
import type { Connection, Target } from "../target/connection.ts";
import { HttpConnection } from "../target/http.ts";
import { StdioConnection } from "../target/stdio.ts";
import { InProcessConnection } from "../target/inproc.ts";
import { RUN_BUDGET_SPENT, type NoteKind } from "../transcript/types.ts";
import { decodeUtf8, recordedLine } from "../transcript/bytes.ts";
import { knownParse } from "../transcript/view.ts";
import { framesIn, leniently, parseObj, type Obj } from "../protocol/envelope.ts";
import { assertDeclared, START_STEP, type Aim, type ProbeSpec } from "../protocol/probes.ts";
import { wallClock, type Clock } from "../target/clock.ts";
import { Inbox, type Item } from "./inbox.ts";
import { RunBudget, SESSION_MAX_LINES } from "./run-budget.ts";
import { stimulusKey, WithheldError, type RecordedEvent, type SessionOptions, type Stall } from "./session-types.ts";

/**
 * One provider process, driven by one probe or by several in turn. Every line
 * sent and received, and everything observed about the process, is recorded
 * in order, tagged with the probe and step that were current.
 */
export class Session {
  readonly events: RecordedEvent[] = [];
  private readonly start = performance.now();
  private readonly clock: Clock;
  private current: string = START_STEP;
  private spec: ProbeSpec | undefined;
  private probe: string;
  /** Where the provider first failed to answer in time, or its output ended. */
  private stall: Stall | undefined;
  /** A stimulus in `avoid` was passed over: the exchange it began has no reply to wait for. */
  private passedOver = false;
  /** Lines received so far: until the first, the provider may still be starting. */
  private received = 0;
  private readonly queue: Inbox;
  private exited: { code: number | null; signal: string | null } | undefined;
  private exitWaiters: Array<() => void> = [];
  private readonly conn: Connection;
  private killedByUs = false;
  private lines = 0;
  private flooded = false;
  private readonly budget: RunBudget;
  /** Writes so far: the seq of the last one sent. */
  private writes = 0;
  /** HTTP: the seq of the request the envelope next() last returned answers. */
  private answered: number | undefined;
  /** Ids of the requests sent, and of the replies returned so far. */
  private readonly requestIds = new Set<unknown>();
  private readonly repliedIds = new Set<unknown>();
  /** The id of a request sent and not yet replied to, when the envelope next() last returned carries it. */
  private repliesTo: unknown;
  /** Set once a handshake_ack shows that consent is missing. */
  private withheld: string | undefined;

  constructor(private readonly opts: SessionOptions) {
    this.probe = opts.probe;
    this.clock = opts.clock ?? wallClock;
    this.queue = new Inbox(this.clock);
    this.budget = opts.budget ?? new RunBudget(opts.limits.maxLineBytes);
    const events = {
      line: (c: { text: string; bytes: number; overLong: boolean; status?: number; replyTo?: number }) => {
        if (this.flooded) return;
        // An over-long line is kept only in part (its first bytes): that part is what the run holds of it.
        const kept = c.overLong ? Buffer.byteLength(c.text) : c.bytes;
        // Parsed here, once, for the budget and for next(): a line's frames are what scoring it costs.
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
        knownParse(
          this.record({
            dir: "recv",
            line: c.text,
            bytes: c.bytes,
            ...(c.overLong ? { overLong: true } : {}),
            ...(c.status !== undefined ? { status: c.status } : {}),
            ...(c.replyTo !== undefined ? { reply_to: c.replyTo } : {}),
          }),
          env,
        );
        this.push({ kind: "line", env, ...(c.replyTo !== undefined ? { replyTo: c.replyTo } : {}) });
      },
      stderr: (text: string) => this.record({ dir: "stderr", text }),
      resent: (replyTo: number, why: string) => this.note("resent", { reason: why, reply_to: replyTo }),
      httpError: (status: number, body: string, replyTo: number) => {
        const why = `the provider answered HTTP ${status} with ${body.trim() === "" ? "an empty body" : `a body that is no envelope: ${JSON.stringify(body.slice(0, 80))}`}`;
        // An error status is an answer: the provider is up.
        this.received++;
        this.note("http-error", { status, reason: why, reply_to: replyTo });
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

  /** The seq of the last request sent. */
  get lastSeq(): number {
    return this.writes;
  }

  /**
   * Whether the envelope next() last returned can be the answer to request
   * `seq`: over HTTP only the response to that very request is (the binding
   * pairs them); on stdio the caller decides from order and id.
   */
  answers(seq: number): boolean | undefined {
    return this.answered === undefined ? undefined : this.answered === seq;
  }

  /**
   * Whether the envelope next() last returned echoes the id of another request
   * still waiting for its reply: then it answers that one (late, or out of
   * order), never the request `id`.
   */
  answersAnother(id: unknown): boolean {
    return this.repliesTo !== undefined && this.repliesTo !== id;
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

  /**
   * Send one envelope, or a raw line (text, or bytes that need not be UTF-8),
   * under a step; `aim` records which rules it aims at and why it was chosen.
   */
  send(step: string, envelope: Obj | string | Uint8Array, aim?: Aim): void {
    this.step(step);
    // A provider that can no longer answer is sent nothing more: what it was not sent, a later session sends.
    if (this.stall) return;
    if (this.opts.avoid?.has(stimulusKey(this.probe, step))) {
      this.passedOver = true;
      this.note("passed-over", { reason: "not sent again: this stimulus ended an earlier session of these probes" });
      return;
    }
    this.passedOver = false;
    const env = typeof envelope === "string" || envelope instanceof Uint8Array ? undefined : envelope;
    // A raw line is judged as what a lenient receiver would read it as: a query spelt oddly is still a query payload (C2).
    const payload = env ?? (this.withheld === undefined ? undefined : leniently(typeof envelope === "string" ? envelope : decodeUtf8(envelope as Uint8Array)));
    if (this.withheld !== undefined && (payload?.type === "query" || payload?.type === "verify")) {
      this.note("withheld", { reason: this.withheld });
      throw new WithheldError(this.withheld);
    }
    const line = env ? JSON.stringify(env) : (envelope as string | Uint8Array);
    // Bytes that are not UTF-8 are recorded as their decoding and, exactly, in hex.
    const recorded = recordedLine(line);
    const seq = ++this.writes;
    if (env?.id !== undefined) this.requestIds.add(env.id);
    // Recorded as sent only once it went out (over HTTP, when its turn came): one that never did is a note saying why.
    const at = { probe: this.probe, step: this.current };
    this.conn.write(line, (unsent) =>
      this.record(
        unsent === undefined
          ? { dir: "send", ...recorded, seq, ...(aim ? { aim } : {}) }
          : { dir: "note", note: "unsent", ...recorded, seq, reason: unsent, ...(aim ? { aim } : {}) },
        at,
      ),
    );
  }

  /** Record a line a probe chose not to send, and why: it is not a write, and never counts as one. */
  notSent(step: string, envelope: Obj, reason: string): void {
    this.step(step);
    this.note("unsent", { line: JSON.stringify(envelope), reason });
  }

  /**
   * The next JSON object the provider sends, skipping (but recording) lines
   * that are not one. Undefined when the deadline passes or the stream ends.
   */
  async next(expecting: string, until = this.deadline(), forSeq?: number): Promise<Obj | undefined> {
    // Nothing was sent, or nothing more can come: no reply to wait for.
    if (this.passedOver || this.stall) return undefined;
    const begun = this.clock.now();
    /** Past the deadline: how many items that had arrived by then are still to be looked at. */
    let arrived: number | undefined;
    for (;;) {
      // Checked on every turn, not only when idle: a provider flooding us with
      // lines that answer nothing must not hold a read open past its deadline.
      if (this.deadlinePassed()) {
        this.stall ??= {
          probe: this.probe,
          step: this.current,
          why: typeof this.opts.signal.reason === "string" ? `the run was ${this.opts.signal.reason}` : "the run's deadline passed",
          kind: "deadline",
        };
        return undefined;
      }
      if (this.clock.now() >= until && arrived === undefined) {
        // A timer fires before the event loop reads what has arrived: an answer that reached this process in time, while
        // its thread was held, is read by one more turn of the loop, and counts. Only what had arrived then is looked at.
        await new Promise((r) => setImmediate(r));
        arrived = this.queue.length;
      }
      if (arrived !== undefined && arrived-- <= 0) {
        const waitedMs = Math.round(until - begun);
        this.note("timeout", { waitedMs, expecting });
        this.stall ??= { probe: this.probe, step: this.current, why: `no reply within ${waitedMs} ms`, kind: "timeout" };
        return undefined;
      }
      const item = this.queue.shift();
      if (item?.kind === "end") {
        this.queue.unshift(item);
        // Output ended: the exit (or spawn failure) usually follows at once, and
        // belongs on the record of the probe that saw it.
        if (!this.exited) await this.waitExit(Math.max(0, Math.min(500, until - this.clock.now())));
        this.stall ??= {
          probe: this.probe,
          step: this.current,
          why: this.exited ? "the provider exited" : "the provider closed its output",
          kind: this.exited ? "exit" : "eof",
        };
        return undefined;
      }
      if (item?.kind === "http-error") {
        // The request waited on was answered, with nothing to read: no point waiting out the timeout. Another's is passed over.
        if (forSeq === undefined || item.replyTo === forSeq) return undefined;
        continue;
      }
      if (item) {
        const v = item.env;
        if (v && typeof v.type === "string") {
          this.answered = item.replyTo;
          this.repliesTo = v.id !== undefined && this.requestIds.has(v.id) && !this.repliedIds.has(v.id) ? v.id : undefined;
          if (v.id !== undefined) this.repliedIds.add(v.id);
          if (v.type === "handshake_ack" && this.opts.withhold) this.withheld = this.opts.withhold(v);
          return v;
        }
        // Over-long, or not a JSON envelope: recorded already, a finding for the framing check.
        continue;
      }
      await this.queue.wait(until - this.clock.now());
    }
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

  private deadlinePassed(): boolean {
    if (!this.opts.signal.aborted) return false;
    const reason = this.opts.signal.reason;
    if (!this.events.some((e) => e.note === "deadline")) this.note("deadline", typeof reason === "string" ? { reason } : {});
    return true;
  }

  private push(item: Item): void {
    this.queue.push(item);
  }

  private note(note: NoteKind, extra: Partial<RecordedEvent> = {}): void {
    this.record({ dir: "note", note, ...extra });
  }

  private record(e: Omit<RecordedEvent, "probe" | "session" | "t" | "step">, at = { probe: this.probe, step: this.current }): RecordedEvent {
    const t = Math.round(performance.now() - this.start);
    const event = { probe: at.probe, session: this.opts.name, t, step: at.step, ...e };
    this.events.push(event);
    return event;
  }
}
