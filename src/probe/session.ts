/**
 * The session: what is sent, what answers it, and when an exchange has waited
 * long enough. Every line sent is booked in a ledger (exchange.ts) with what
 * answers it; every reply is paired as it arrives. The process and its
 * record are the channel's (channel.ts); options and what is recorded are in
 * session-types.ts, the bounds on what it keeps in run-budget.ts.
 */
import type { Fate } from "../transcript/types.ts";
import { endFate } from "../transcript/fate.ts";
import { decodeUtf8, recordedLine } from "../transcript/bytes.ts";
import { isObj, leniently, type Obj } from "../protocol/envelope.ts";
import { type At, expectOf, Ledger, type Pairing } from "./exchange.ts";
import type { Aim } from "../protocol/probes.ts";
import { Channel } from "./channel.ts";
import { stimulusKey, WithheldError } from "./session-types.ts";
import type { FileRecord } from "./provenance-files.ts";

/**
 * How long, at the least, a session whose provider declared correlation
 * stays open for a late reply to a line that may go unanswered, once every
 * other line is done (four times its slowest reply, if longer, up to the
 * timeout): the line's chase was answered already, so this is no deadline the
 * spec sets, only room for a provider that answers it after later requests.
 */
export const SETTLE_GRACE_MS = 250;

/** One provider process, driven by one probe or by several in turn, as a host drives it. */
export class Session extends Channel {
  /** Writes so far: the seq of the last one sent. */
  private writes = 0;
  /** What each line sent expects, where it was sent (a reply is recorded under its request's step), and what answers it. */
  private readonly ledger = new Ledger();
  /** The seq of the last line send() wrote, or undefined when the last send() wrote nothing (passed over, stalled). */
  private lastWrite: number | undefined;
  /** Set once a handshake_ack shows that consent is missing. */
  private withheld: string | undefined;
  /** The longest a reply has taken in this session, from its line's write to its arrival, on the session's clock. */
  private slowest = 0;

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
    const at = { probe: this.probe, step: this.current };
    this.ledger.sent(seq, expect, at, this.clock.now());
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

  /** Record what the run read of files (none of the provider's lines) under a step. */
  files(step: string, records: readonly FileRecord[]): void {
    this.step(step);
    for (const r of records) this.record(r);
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
      const got = this.ledger.replyOf(seq);
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
        if (this.ledger.replyOf(seq)) continue;
        const waitedMs = Math.round(until - begun);
        const at = this.ledger.where(seq);
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
        if (this.ledger.replyOf(seq)) continue;
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
    // A provider slow to answer what it did answer gets as long again, four times over, for what it has not yet.
    const grace = Math.min(this.opts.timeoutMs, Math.max(SETTLE_GRACE_MS, 4 * this.slowest));
    for (;;) {
      const open = this.ledger.open(true);
      if (open.length === 0 || this.stall || this.opts.signal.aborted) return;
      const until = Math.max(
        ...open.map((seq) =>
          this.ledger.expectOf(seq)?.required
            ? this.ledger.sentAt(seq) + this.opts.timeoutMs
            : Math.min(now + grace, this.ledger.sentAt(seq) + this.opts.timeoutMs),
        ),
      );
      if (this.clock.now() >= until) return;
      this.queue.shift();
      await this.queue.wait(until - this.clock.now());
    }
  }

  protected pair(env: Obj | undefined, replyTo: number | undefined): { seq?: number; pairing?: Pairing; at?: At } {
    const pairing = env && typeof env.type === "string" ? this.ledger.pair(env.type, env.id, replyTo) : undefined;
    const seq = pairing === undefined ? replyTo : pairing.kind === "unasked" ? pairing.after : pairing.seq;
    const at = seq !== undefined && pairing !== undefined ? this.ledger.where(seq) : undefined;
    return { ...(seq !== undefined ? { seq } : {}), ...(pairing ? { pairing } : {}), ...(at ? { at } : {}) };
  }

  protected answeredEmpty(seq: number, status: number): void {
    if (this.ledger.pair("", undefined, seq).kind === "answers") this.fate(seq, { kind: "http-error", status });
  }

  /** A paired answer: kept for reply(), and a handshake_ack says how the rest of the session is paired and whether consent allows queries. */
  protected answered(seq: number, env: Obj): void {
    this.ledger.keep(seq, env);
    // The handshake's reply counts the provider's start, which says nothing of how fast it answers.
    if (env.type !== "handshake_ack") this.slowest = Math.max(this.slowest, this.clock.now() - this.ledger.sentAt(seq));
    if (env.type === "handshake_ack") {
      this.ledger.correlated = isObj(env.capabilities) && env.capabilities.correlation === true;
      if (this.opts.withhold) this.withheld = this.opts.withhold(env);
    }
  }

  /** Record why write `seq` got no reply, once. */
  private fate(seq: number, cause: Fate): void {
    if (this.ledger.toFate(seq)) this.note("unanswered", { reply_to: seq, cause }, this.ledger.where(seq));
  }

  /** Every line still without a reply gets its fate, from how the session ended. */
  protected ending(): void {
    const lastAnswered = this.ledger.lastAnswered();
    const ended = endFate(this.stall, this.exited, this.opts.signal.reason);
    for (const seq of this.ledger.unanswered()) {
      // In lock-step a line that may go unanswered is bounded by the answer to a later line; with correlation, by the session's end.
      const chased = !this.ledger.expectOf(seq)!.required && !this.ledger.correlated && lastAnswered > seq;
      this.fate(seq, chased ? { kind: "chased", by: lastAnswered } : ended);
    }
  }
}
