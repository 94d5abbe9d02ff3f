import { parseObj, type Obj } from "../protocol/envelope.ts";
import { assertDeclared, HANDSHAKE_STEP, type ProbeSpec } from "../protocol/probes.ts";
import { lastError } from "./crash.ts";
import { fateOf, fateWords } from "./fate.ts";
import type { NoteKind, TranscriptEvent } from "./types.ts";

/** A line that parsed as a JSON object: an envelope candidate. */
export interface Message {
  n: number;
  step: string;
  /** The provider process (session) it was sent to or received from. */
  session: string;
  env: Obj;
  /** send: the write's ordinal in its session. */
  seq?: number;
  /** recv: the seq of the line it answers (or, with `pairing`, is attributed to). */
  replyTo?: number;
  /** recv: set when the reply answers no request (src/probe/exchange.ts). */
  pairing?: TranscriptEvent["pairing"];
  /** send: what answers it; present in every transcript recorded since the session pairs replies itself. */
  expect?: TranscriptEvent["expect"];
  /** send: the rules the stimulus aims at. */
  aim?: { rules: string[]; why: string };
}

/**
 * Each recorded line is parsed once, however many checks and views read it:
 * scoring stays linear in the transcript. A parse is shared, so it is
 * read-only; the test suite freezes every parse to prove no reader writes.
 */
const PARSED = new WeakMap<object, Obj | null>();
let freezing = false;

/** Test hook: deep-freeze every parse from now on, so a reader that writes to a shared envelope throws. */
export function freezeParses(on: boolean): void {
  freezing = on;
}

function deepFreeze(v: unknown): void {
  // Iterative: a parse may be nested up to MAX_DEPTH, and the walk must be depth-safe whatever it holds.
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null || Object.isFrozen(x)) continue;
    Object.freeze(x);
    for (const y of Object.values(x)) stack.push(y);
  }
}

/**
 * What the recorder already parsed of a line as it arrived (`env`, or undefined
 * for no object), so the checks share that parse instead of making another:
 * parseObj of the same text, as envelopeOf would make it.
 */
export function knownParse(e: object, env: Obj | undefined): void {
  if (PARSED.has(e)) return;
  if (freezing) deepFreeze(env);
  PARSED.set(e, env ?? null);
}

/** The event `to` is a copy of `from` (numbered): it holds the same line, and so the same parse. */
export function sameParse(from: object, to: object): void {
  const v = PARSED.get(from);
  if (v !== undefined) PARSED.set(to, v);
}

/** The JSON object a recorded line holds (parsed once, shared: never write to it), or undefined. */
export function envelopeOf(e: Pick<TranscriptEvent, "line" | "overLong">): Obj | undefined {
  let v = PARSED.get(e);
  if (v === undefined) {
    v = (e.overLong ? undefined : parseObj(e.line)) ?? null;
    if (freezing) deepFreeze(v);
    PARSED.set(e, v);
  }
  return v ?? undefined;
}

/** What one probe's session recorded, with the read-only queries checks need. */
export class ProbeView {
  readonly name: string;
  private byDir: Record<"send" | "recv", { all: Message[]; byStep: Map<string, Message[]> }> | undefined;

  /**
   * `events`: one attempt per step (the first session that sent it); `recorded`:
   * every event of the probe in every session it ran in, for what no attempt
   * may hide (a crash in a fresh session on a step an earlier one had sent).
   */
  constructor(
    readonly spec: ProbeSpec,
    readonly events: TranscriptEvent[],
    readonly recorded: TranscriptEvent[] = events,
  ) {
    this.name = spec.name;
  }

  /** A step this view's probe does not declare is a bug in the asker: throw, never answer "nothing". */
  private checked(step: string | undefined): void {
    if (step !== undefined) assertDeclared(this.spec, step);
  }

  get ran(): boolean {
    return this.events.length > 0;
  }

  /** Sent and received envelopes, indexed once per view: every query below is then linear in what it returns. */
  private index(): NonNullable<ProbeView["byDir"]> {
    if (this.byDir) return this.byDir;
    const byDir = {
      send: { all: [] as Message[], byStep: new Map<string, Message[]>() },
      recv: { all: [] as Message[], byStep: new Map<string, Message[]>() },
    };
    for (const e of this.events) {
      if (e.dir !== "send" && e.dir !== "recv") continue;
      const env = envelopeOf(e);
      if (!env) continue;
      const m: Message = {
        n: e.n,
        step: e.step,
        session: e.session,
        env,
        ...(e.seq !== undefined ? { seq: e.seq } : {}),
        ...(e.reply_to !== undefined ? { replyTo: e.reply_to } : {}),
        ...(e.pairing !== undefined ? { pairing: e.pairing } : {}),
        ...(e.expect !== undefined ? { expect: e.expect } : {}),
        ...(e.aim !== undefined ? { aim: e.aim } : {}),
      };
      const d = byDir[e.dir];
      d.all.push(m);
      let at = d.byStep.get(e.step);
      if (!at) d.byStep.set(e.step, (at = []));
      at.push(m);
    }
    return (this.byDir = byDir);
  }

  private messages(dir: "send" | "recv", step?: string): Message[] {
    this.checked(step);
    const d = this.index()[dir];
    // A fresh array each time: a caller may sort or filter what it is given.
    return (step === undefined ? d.all : (d.byStep.get(step) ?? [])).slice();
  }

  /** Received lines that parsed as JSON objects, optionally within one step. */
  received(step?: string): Message[] {
    return this.messages("recv", step);
  }

  sent(step?: string): Message[] {
    return this.messages("send", step);
  }

  /** Received lines that are not a JSON object carrying a string `type`. */
  nonEnvelopes(): TranscriptEvent[] {
    return this.events.filter((e) => {
      if (e.dir !== "recv") return false;
      if (e.overLong) return true;
      const env = envelopeOf(e);
      return !env || typeof env.type !== "string";
    });
  }

  notes(kind: NoteKind, step?: string): TranscriptEvent[] {
    this.checked(step);
    return this.events.filter((e) => e.dir === "note" && e.note === kind && (step === undefined || e.step === step));
  }

  /** The first reply of a given envelope type in a step. */
  reply(step: string, type?: string): Message | undefined {
    return this.received(step).find((m) => type === undefined || m.env.type === type);
  }

  /**
   * The answer to the request sent in a step. Over HTTP, the response the
   * binding pairs with it (recorded as reply_to), whatever its type; on stdio,
   * lock-step, so the first reply of an answering type.
   */
  answer(step: string, types: readonly string[] = ["frames", "error", "verified"]): Message | undefined {
    const got = this.received(step);
    const mine = this.sent(step)[0];
    // Paired as it arrived (every transcript since the session pairs replies; HTTP always): the reply that answers it.
    if (mine?.seq !== undefined && (mine.expect !== undefined || got.some((m) => m.replyTo !== undefined))) return this.answerTo(mine);
    const candidates = got.filter((m) => types.includes(m.env.type as string));
    // With ids in play, the reply echoing this request's id is its answer; one echoing another request's id never is
    // (it answers that one, late). Otherwise, lock-step: the first, whatever its id says (H4 judges a mangled one).
    const id = mine?.env.id;
    if (id === undefined) return candidates[0];
    const others = this.outstanding(step);
    return candidates.find((m) => m.env.id === id) ?? candidates.find((m) => !others.has(m.env.id));
  }

  /** The reply the session paired with a line sent, if one answers it. */
  answerTo(mine: Pick<Message, "step" | "seq" | "session">): Message | undefined {
    return this.repliesTo(mine).find((m) => m.pairing === undefined);
  }

  /** Every reply the session attributed to a line sent: its answer, and any reply that answers nothing but followed it or names its id. */
  repliesTo(mine: Pick<Message, "step" | "seq" | "session">): Message[] {
    // Recorded under the line's step since the session pairs replies; an HTTP transcript from before, under the step current when it came.
    return this.index().recv.all.filter((m) => m.replyTo === mine.seq && m.session === mine.session);
  }

  /** Whether the transcript pairs replies itself (recorded since the session keeps a ledger), rather than leaving order and id to be read. */
  get paired(): boolean {
    return this.sent().some((m) => m.expect !== undefined) || this.received().some((m) => m.replyTo !== undefined);
  }

  /**
   * The ids of the other requests that could still be answered when `step`'s
   * request was sent: sent, and not answered before it. A reply carrying one
   * of them answers that request (late, or out of order); a reply carrying
   * the id of a request already answered, or an id never sent, is a mangled
   * reply to this one (H4's to judge).
   */
  outstanding(step: string): Set<unknown> {
    const mine = this.sent(step)[0];
    if (!mine) return new Set();
    const answered = new Set(
      this.received()
        .filter((m) => m.n < mine.n && m.env.id !== undefined)
        .map((m) => m.env.id),
    );
    return new Set(
      this.sent()
        .map((m) => m.env.id)
        .filter((x) => x !== undefined && x !== mine.env.id && !answered.has(x)),
    );
  }

  /** What became of a request that got no answer: the timeout or exit that shows it. */
  silence(step: string): { why: string; lines: number[] } {
    this.checked(step);
    const mine = this.sent(step)[0];
    const fate = mine?.seq !== undefined ? fateOf(this.recorded, mine.session, mine.seq) : undefined;
    if (fate?.cause) return this.fateShown(fate);
    // The most telling note first: an exit says more than the end of output that precedes it.
    const notes = this.events.filter((x) => x.step === step && x.dir === "note");
    const e = (["timeout", "exit", "deadline", "connect-error", "http-error", "eof"] as const)
      .map((k) => notes.find((x) => x.note === k))
      .find((x) => x !== undefined);
    const said = e?.note === "exit" ? lastError(this.events, e) : undefined;
    const why =
      e?.note === "timeout"
        ? `no reply within ${e.waitedMs} ms`
        : e?.note === "exit"
          ? exitWords(this.events, e)
          : e?.note === "eof"
            ? "the provider closed its output"
            : e?.note === "deadline"
              ? e.reason
                ? `the run was ${e.reason}`
                : "the run's deadline passed"
              : e?.note === "connect-error" || e?.note === "http-error"
                ? String(e.reason)
                : "no reply";
    return { why, lines: e ? [...(said ? [said.n] : []), e.n].sort((a, b) => a - b) : [] };
  }

  /** A fate note, in words, with the lines that show it (an exit: the exit and the stderr line that states its error). */
  fateShown(fate: TranscriptEvent): { why: string; lines: number[] } {
    const cause = fate.cause!;
    if (cause.kind === "exit") {
      const exit = this.recorded.find((e) => e.note === "exit" && e.session === fate.session);
      if (exit) {
        const said = lastError(this.recorded, exit);
        return { why: fateWords(cause, this.recorded, exit), lines: [...(said ? [said.n] : []), exit.n].sort((a, b) => a - b) };
      }
    }
    return { why: fateWords(cause, this.recorded, fate), lines: [fate.n] };
  }

  /** The provider's handshake_ack for this session's opening handshake. */
  ack(): Message | undefined {
    return this.reply(HANDSHAKE_STEP, "handshake_ack");
  }

  /** The process exit this session observed, if any. */
  exit(): TranscriptEvent | undefined {
    return this.notes("exit")[0];
  }

  /**
   * Why this session cannot support a verdict at all, if it cannot: it never
   * ran, the provider would not start, or it never completed the handshake.
   */
  brokenPrecondition(needAck = true): { message: string; lines: number[] } | undefined {
    if (!this.ran) return { message: `probe ${this.name} did not run (the run's deadline passed first)`, lines: [] };
    const withheld = this.notes("withheld")[0];
    if (withheld) return { message: `no query was sent to this provider: ${withheld.reason}`, lines: [withheld.n] };
    const abandoned = this.notes("abandoned")[0];
    if (abandoned) return { message: `probe ${this.name} was not run: ${abandoned.reason}`, lines: [abandoned.n] };
    const spawn = this.notes("spawn-error")[0];
    if (spawn) return { message: `the provider could not be started: ${spawn.reason}`, lines: [spawn.n] };
    const unreachable = this.notes("connect-error")[0];
    if (unreachable && !this.ack()) return { message: `the provider could not be reached: ${unreachable.reason}`, lines: [unreachable.n] };
    const dl = this.notes("deadline")[0];
    if (dl && !this.ack())
      return {
        message: dl.reason ? `the run was ${dl.reason} before the handshake completed` : "the run's global deadline passed before the handshake completed",
        lines: [dl.n],
      };
    // The ack came too late: the session gave up on it and the probe never ran its steps, even though a
    // handshake_ack is in the record (it arrived after the timeout).
    const late = this.notes("timeout", HANDSHAKE_STEP)[0];
    if (needAck && late && this.ack() && !this.events.some((e) => e.dir === "send" && e.step !== HANDSHAKE_STEP)) {
      const evidence = this.events.filter((e) => e.step === HANDSHAKE_STEP && e.dir !== "send").map((e) => e.n);
      return { message: `no handshake_ack arrived within ${late.waitedMs} ms (one came later), so probe ${this.name} could not proceed`, lines: evidence };
    }
    if (needAck && this.sent(HANDSHAKE_STEP).length > 0 && !this.ack()) {
      const evidence = this.events.filter((e) => e.step === HANDSHAKE_STEP && e.dir !== "send").map((e) => e.n);
      const to = this.notes("timeout", HANDSHAKE_STEP)[0];
      const refused = this.notes("http-error", HANDSHAKE_STEP)[0];
      const why = refused
        ? String(refused.reason)
        : to
          ? `no handshake_ack arrived within ${to.waitedMs} ms`
          : this.exit()
            ? "the provider exited before sending a handshake_ack"
            : "the provider answered the handshake with something other than handshake_ack";
      return { message: `${why}, so probe ${this.name} could not proceed`, lines: evidence };
    }
    return undefined;
  }
}

/** Every line sent or received that parses as a JSON object, with its event, in transcript order. */
export function envelopes<E extends Pick<TranscriptEvent, "dir" | "line" | "overLong">>(events: readonly E[]): Array<{ e: E; env: Obj }> {
  const out: Array<{ e: E; env: Obj }> = [];
  for (const e of events) {
    if (e.dir !== "send" && e.dir !== "recv") continue;
    const env = envelopeOf(e);
    if (env) out.push({ e, env });
  }
  return out;
}

/** The first handshake_ack received, in transcript order: what consent is decided on. */
export function firstAck(events: readonly Pick<TranscriptEvent, "dir" | "line" | "overLong">[]): Obj | undefined {
  return envelopes(events).find(({ e, env }) => e.dir === "recv" && env.type === "handshake_ack")?.env;
}

/** How a provider's exit reads in a finding: its code or signal, and the last thing it said on stderr. */
export function exitWords(events: readonly TranscriptEvent[], exit: TranscriptEvent): string {
  const said = lastError(events, exit);
  return `the provider exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`})${said ? `: ${said.quoted}` : ""}`;
}
