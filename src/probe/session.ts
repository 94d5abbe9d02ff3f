/**
 * The session: what is sent, what comes back, and when an exchange has waited long enough. Its
 * options and what it records are in session-types.ts, the bounds on what it keeps in run-budget.ts.
 */
import type { Connection, Target } from "../target/connection.ts";
import { HttpConnection } from "../target/http.ts";
import { StdioConnection } from "../target/stdio.ts";
import { InProcessConnection } from "../target/inproc.ts";
import { RUN_BUDGET_SPENT, type Fate, type NoteKind } from "../transcript/types.ts";
import { decodeUtf8, recordedLine } from "../transcript/bytes.ts";
import { knownParse } from "../transcript/view.ts";
import { framesIn, isObj, leniently, parseObj, type Obj } from "../protocol/envelope.ts";
import { expectOf, Ledger, type Pairing } from "./exchange.ts";
import { assertDeclared, START_STEP, type Aim, type ProbeSpec } from "../protocol/probes.ts";
import { wallClock, type Clock } from "../target/clock.ts";
import { Inbox, type Item } from "./inbox.ts";
import { RunBudget, SESSION_MAX_LINES } from "./run-budget.ts";
import { stimulusKey, WithheldError, type RecordedEvent, type SessionOptions, type Stall } from "./session-types.ts";

/**
 * How long a session whose provider declared correlation stays open for a
 * late reply to a line that may go unanswered, once every other line is done:
 * its chase was answered already, so this is no deadline the spec sets, only
 * room for a provider that answers it after later requests.
 */
export const SETTLE_GRACE_MS = 250;

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
  /** What each line sent expects, and what has answered it. */
  private readonly ledger = new Ledger();
  /** Each write's probe and step (a reply is recorded under its request's), when it was sent, and its answer once paired. */
  private readonly writesAt = new Map<number, { probe: string; step: string; sentAt: number }>();
  private readonly replies = new Map<number, Obj>();
  /** Writes whose fate (why no reply came) is recorded. */
  private readonly fated = new Set<number>();
  /** The seq of the last line send() wrote, or undefined when the last send() wrote nothing (passed over, stalled). */
  private lastWrite: number | undefined;
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
        // Paired as it arrives, and recorded under the step of the line it answers: a late reply is still its request's.
        const pairing = env && typeof env.type === "string" ? this.ledger.pair(env.type, env.id, c.replyTo) : undefined;
        const seq = pairing === undefined ? c.replyTo : pairing.kind === "unasked" ? pairing.after : pairing.seq;
        const at = seq !== undefined && pairing !== undefined ? this.writesAt.get(seq) : undefined;
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
        if (pairing?.kind === "answers") this.answered(pairing, env!);
        this.push({ kind: "line", env, ...(c.replyTo !== undefined ? { replyTo: c.replyTo } : {}) });
      },
      stderr: (text: string) => this.record({ dir: "stderr", text }),
      resent: (replyTo: number, why: string) => this.note("resent", { reason: why, reply_to: replyTo }),
      httpError: (status: number, body: string, replyTo: number) => {
        const why = `the provider answered HTTP ${status} with ${body.trim() === "" ? "an empty body" : `a body that is no envelope: ${JSON.stringify(body.slice(0, 80))}`}`;
        // An error status is an answer: the provider is up.
        this.received++;
        this.note("http-error", { status, reason: why, reply_to: replyTo });
        if (this.ledger.pair("", undefined, replyTo).kind === "answers") this.fate(replyTo, { kind: "http-error", status });
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

  /** The seq of the line the last send() wrote, or undefined when it wrote nothing (passed over, stalled, withheld). */
  get lastSeq(): number | undefined {
    return this.lastWrite;
  }

  /** Whether write `seq` reads as a request (a type a reply of its own answers), however malformed: in lock-step it is then in flight. */
  isRequest(seq: number): boolean {
    return this.ledger.expectOf(seq)?.types.some((t) => t !== "error") === true;
  }

  /** Whether the provider declared correlation in the handshake_ack this session received: replies are then paired by id. */
  get correlated(): boolean {
    return this.ledger.correlated;
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
   * `how.maybe`: a stimulus a conformant provider may leave unanswered (a
   * malformed line, a request it may refuse in silence). `how.chase`: a valid
   * query sent to bound such a line; in lock-step only frames answer it, so
   * an error replying to the line before it is never taken for its answer.
   * Returns the write's seq, or undefined when nothing was written.
   */
  send(step: string, envelope: Obj | string | Uint8Array, aim?: Aim, how: { maybe?: boolean; chase?: boolean } = {}): number | undefined {
    this.step(step);
    this.lastWrite = undefined;
    // A provider that can no longer answer is sent nothing more: what it was not sent, a later session sends.
    if (this.stall) return undefined;
    if (this.opts.avoid?.has(stimulusKey(this.probe, step))) {
      this.note("passed-over", { reason: "not sent again: this stimulus ended an earlier session of these probes" });
      return undefined;
    }
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
    const expect = expectOf(line, this.ledger.correlated, how.maybe);
    if (how.chase) expect.chase = true;
    this.ledger.sent(seq, expect);
    const at = { probe: this.probe, step: this.current };
    this.writesAt.set(seq, { ...at, sentAt: this.clock.now() });
    this.lastWrite = seq;
    const expected = { types: [...expect.types], required: expect.required };
    // Recorded as sent only once it went out (over HTTP, when its turn came): one that never did is a note saying why.
    this.conn.write(line, (unsent) => {
      // A line that never went out is recorded as not sent, with why; nothing can answer it, so it has no fate.
      if (unsent !== undefined) this.ledger.forget(seq);
      this.record(
        unsent === undefined
          ? { dir: "send", ...recorded, seq, expect: expected, ...(aim ? { aim } : {}) }
          : { dir: "note", note: "unsent", ...recorded, seq, reason: unsent, ...(aim ? { aim } : {}) },
        at,
      );
    });
    return seq;
  }

  /** Record a line a probe chose not to send, and why: it is not a write, and never counts as one. */
  notSent(step: string, envelope: Obj, reason: string): void {
    this.step(step);
    this.note("unsent", { line: JSON.stringify(envelope), reason });
  }

  /**
   * The reply that answers write `seq` (the last one sent, by default), as
   * the ledger pairs it; undefined when none came by the deadline, the
   * provider ended, or nothing was written. A required request left
   * unanswered stalls the session (lock-step cannot go past it); a line that
   * may go unanswered does not.
   */
  async reply(seq: number | undefined = this.lastWrite, until = this.deadline()): Promise<Obj | undefined> {
    if (seq === undefined) return undefined;
    const begun = this.clock.now();
    /** Past the deadline: how many items that had arrived by then are still to be looked at. */
    let arrived: number | undefined;
    for (;;) {
      const got = this.replies.get(seq);
      if (got) return got;
      if (this.stall) return undefined;
      // Checked on every turn, not only when idle: a provider flooding us with
      // lines that answer nothing must not hold a read open past its deadline.
      if (this.deadlinePassed()) {
        const reason = typeof this.opts.signal.reason === "string" ? this.opts.signal.reason : undefined;
        this.stall ??= { probe: this.probe, step: this.current, why: reason ? `the run was ${reason}` : "the run's deadline passed", kind: "deadline" };
        return undefined;
      }
      if (this.clock.now() >= until && arrived === undefined) {
        // A timer fires before the event loop reads what has arrived: an answer that reached this process in time, while
        // its thread was held, is read by one more turn of the loop, and counts. Only what had arrived then is looked at.
        await new Promise((r) => setImmediate(r));
        arrived = this.queue.length;
      }
      if (arrived !== undefined && arrived-- <= 0) {
        if (this.replies.has(seq)) continue;
        const waitedMs = Math.round(until - begun);
        const at = this.writesAt.get(seq);
        this.note("timeout", { waitedMs, expecting: `a reply to write ${seq}` }, at);
        if (this.ledger.expectOf(seq)?.required) {
          this.stall ??= { probe: at?.probe ?? this.probe, step: at?.step ?? this.current, why: `no reply within ${waitedMs} ms`, kind: "timeout" };
        }
        this.ledger.expire(seq);
        this.fate(seq, { kind: "timeout", waited_ms: waitedMs });
        return undefined;
      }
      const item = this.queue.shift();
      if (item?.kind === "end") {
        this.queue.unshift(item);
        if (this.replies.has(seq)) continue;
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
      // The request waited on was answered over HTTP with nothing to read: no point waiting out the timeout.
      if (item?.kind === "http-error" && item.replyTo === seq) return undefined;
      if (item) continue;
      await this.queue.wait(until - this.clock.now());
    }
  }

  /**
   * With correlation, a reply may come in any order at any time before the
   * session ends: before it ends, a request that must be answered is waited
   * for until its deadline, and a line that may go unanswered (already
   * bounded by the answer to the query that chased it) for a short grace, all
   * at once. In lock-step nothing is left in flight.
   */
  async settle(): Promise<void> {
    if (!this.ledger.correlated) return;
    const now = this.clock.now();
    const grace = Math.min(this.opts.timeoutMs, SETTLE_GRACE_MS);
    for (;;) {
      const open = this.ledger.open(true);
      if (open.length === 0 || this.stall || this.opts.signal.aborted) return;
      const until = Math.max(
        ...open.map((seq) =>
          this.ledger.expectOf(seq)?.required ? (this.writesAt.get(seq)?.sentAt ?? 0) + this.opts.timeoutMs : Math.min(now + grace, (this.writesAt.get(seq)?.sentAt ?? 0) + this.opts.timeoutMs),
        ),
      );
      if (this.clock.now() >= until) return;
      this.queue.shift();
      await this.queue.wait(until - this.clock.now());
    }
  }

  /** A paired answer: kept for reply(), and a handshake_ack says how the rest of the session is paired and whether consent allows queries. */
  private answered(p: Extract<Pairing, { kind: "answers" }>, env: Obj): void {
    this.replies.set(p.seq, env);
    if (env.type === "handshake_ack") {
      this.ledger.correlated = isObj(env.capabilities) && env.capabilities.correlation === true;
      if (this.opts.withhold) this.withheld = this.opts.withhold(env);
    }
  }

  /** Record why write `seq` got no reply, once. */
  private fate(seq: number, cause: Fate): void {
    if (this.fated.has(seq)) return;
    this.fated.add(seq);
    this.note("unanswered", { reply_to: seq, cause }, this.writesAt.get(seq));
  }

  /** Every line still without a reply gets its fate, from how the session ended. */
  private fateTheRest(): void {
    const end = this.stall;
    const exit = this.exited;
    let lastAnswered = 0;
    for (const seq of this.replies.keys()) lastAnswered = Math.max(lastAnswered, seq);
    for (const seq of this.ledger.unanswered()) {
      if (this.fated.has(seq)) continue;
      const expect = this.ledger.expectOf(seq)!;
      const cause: Fate | undefined =
        !expect.required && !this.ledger.correlated && lastAnswered > seq
          ? { kind: "chased", by: lastAnswered }
          : end?.kind === "exit" || (exit && end?.kind !== "deadline")
            ? { kind: "exit", exit_code: exit?.code ?? null, signal: exit?.signal ?? null }
            : end?.kind === "eof"
              ? { kind: "eof" }
              : end?.kind === "deadline"
                ? { kind: "deadline", ...(typeof this.opts.signal.reason === "string" ? { reason: this.opts.signal.reason } : {}) }
                : end?.kind === "unreachable"
                  ? { kind: "unreachable", error: end.why }
                  : end?.kind === "flood"
                    ? { kind: "flood" }
                    : { kind: "session-ended" };
      this.fate(seq, cause);
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
    this.fateTheRest();
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

  private note(note: NoteKind, extra: Partial<RecordedEvent> = {}, at?: { probe: string; step: string }): void {
    this.record({ dir: "note", note, ...extra }, at);
  }

  private record(e: Omit<RecordedEvent, "probe" | "session" | "t" | "step">, at?: { probe: string; step: string }): RecordedEvent {
    const t = Math.round(performance.now() - this.start);
    const event = { probe: at?.probe ?? this.probe, session: this.opts.name, t, step: at?.step ?? this.current, ...e };
    this.events.push(event);
    return event;
  }
}
