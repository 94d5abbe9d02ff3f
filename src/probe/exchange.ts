/**
 * The exchange ledger: for every line a session sends, what answers it, and
 * for every reply, the request it answers. cgp-conform is a host, and §2 binds
 * it as one: "A host MUST NOT send an id to a provider that did not declare
 * capabilities.correlation; such a provider is queried in lock-step". So
 * replies are paired by id where the provider declared correlation (any
 * order, any time before the session ends), and by order where it did not,
 * never by their position in a probe's step. Pure: no I/O, no clock.
 */
import { isObj, parseObj, type Obj } from "../protocol/envelope.ts";

/** The reply types that answer each request type (§2): nothing else does. */
const ANSWERS: Readonly<Record<string, readonly string[]>> = {
  handshake: ["handshake_ack", "error"],
  query: ["frames", "error"],
  verify: ["verified", "error"],
};

/** What a line sent expects back. */
export interface Expect {
  /** The reply types that answer it; none for a notification, or a line nothing answers (shutdown). */
  types: readonly string[];
  /**
   * Whether a conformant provider must answer it. A malformed line, an
   * unknown request type and a request a provider may refuse in silence need
   * not be: those are chased by a valid query whose reply bounds them.
   */
  required: boolean;
  /** The id it carries, when it carries one a reply can echo (a string or a number, as sent). */
  id?: string | number;
  /** Its reply may come without its id and still be its answer (an object with no type: no envelope a provider must echo). */
  loose?: boolean;
  /**
   * A valid query sent to bound the line before it: only frames answer it by
   * order (an error is far likelier the line's), though an error carrying its
   * own id answers it.
   */
  chase?: boolean;
}

/**
 * What a line expects, read from the line itself. `maybe`: the probe sent it
 * as a stimulus that may go unanswered (R1's, a request a provider may leave
 * unserved), so no reply is required even of a request type.
 */
export function expectOf(line: string | Uint8Array, correlated: boolean, maybe = false): Expect {
  const env = typeof line === "string" ? parseObj(line.replace(/\r$/, "")) : undefined;
  const rawId = env?.id;
  const id = typeof rawId === "string" || typeof rawId === "number" ? rawId : undefined;
  const withId = correlated && id !== undefined ? { id } : {};
  if (!env) return { types: ["error"], required: false };
  const type = env.type;
  // An object with no type is no envelope a provider can know for a request: its reply may echo the id it carries, and
  // need not.
  if (typeof type !== "string") return { types: ["error"], required: false, ...withId, ...(withId.id !== undefined ? { loose: true } : {}) };
  if (type === "shutdown") return { types: [], required: false, ...withId };
  const answers = ANSWERS[type];
  // §2: "An envelope with no id is a notification — it expects no reply"; to a lock-step provider every request has no id.
  if (!answers) return { types: correlated && id === undefined ? [] : ["error"], required: false, ...withId };
  return { types: answers, required: !maybe && isObj(env) && (type === "handshake" || !correlated || id !== undefined), ...withId };
}

/**
 * Whether two ids are the same text in another Unicode normalisation. Not
 * case: ids that differ only in case are two requests a probe sends on
 * purpose, and a second reply to one must never pass for the other's answer.
 */
function spelling(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a !== b && a.normalize("NFC") === b.normalize("NFC");
}

/** How a reply relates to what was sent. */
export type Pairing =
  /** It answers request `seq`: its id (with correlation) or its turn (lock-step) and its type say so. */
  | { kind: "answers"; seq: number }
  /** It carries the id of request `seq`, already answered: a second answer. */
  | { kind: "duplicate"; seq: number }
  /** It carries the id of request `seq`, still open, but its type does not answer that request. */
  | { kind: "wrong-type"; seq: number }
  /** Nothing open accepts it; `after` is the last line sent before it arrived (the line a lenient provider answered). */
  | { kind: "unasked"; after?: number };

/** Where a line was sent: the probe and step its replies and its fate are recorded under. */
export interface At {
  probe: string;
  step: string;
}

interface Entry {
  seq: number;
  expect: Expect;
  at: At;
  /** When it was sent, on the session's clock. */
  sentAt: number;
  answered: boolean;
  /** The envelope that answers it, once paired. */
  reply?: Obj;
  /** Its fate (why no reply came) is recorded. */
  fated?: boolean;
  /** It was answered by order, by a reply that did not carry its id. */
  byOrder?: boolean;
  /** Past its deadline in lock-step: nothing later is paired with it, so a later reply never shifts onto it. */
  expired?: boolean;
}

/** One session's requests, in the order sent, and what has answered each. */
export class Ledger {
  private readonly entries: Entry[] = [];

  constructor(public correlated = false) {}

  /** A line went out as write `seq`, under `at`, at `sentAt` on the session's clock. */
  sent(seq: number, expect: Expect, at: At = { probe: "", step: "" }, sentAt = 0): void {
    this.entries.push({ seq, expect, at, sentAt, answered: false });
  }

  private entry(seq: number): Entry | undefined {
    return this.entries.find((e) => e.seq === seq);
  }

  /** Where write `seq` was sent, and when. */
  where(seq: number): At | undefined {
    return this.entry(seq)?.at;
  }
  sentAt(seq: number): number {
    return this.entry(seq)?.sentAt ?? 0;
  }

  /** The envelope that answers write `seq`, once paired; keep it with `keep`. */
  replyOf(seq: number): Obj | undefined {
    return this.entry(seq)?.reply;
  }
  keep(seq: number, env: Obj): void {
    const e = this.entry(seq);
    if (e) e.reply = env;
  }

  /** The highest write answered so far (0 when none). */
  lastAnswered(): number {
    return this.entries.reduce((m, e) => (e.answered && e.seq > m ? e.seq : m), 0);
  }

  /** Whether write `seq`'s fate is still to be recorded: true once, then false. */
  toFate(seq: number): boolean {
    const e = this.entry(seq);
    if (!e || e.fated) return false;
    e.fated = true;
    return true;
  }

  /** Write `seq` never went out (the transport says why): nothing can answer it. */
  forget(seq: number): void {
    const i = this.entries.findIndex((e) => e.seq === seq);
    if (i !== -1) this.entries.splice(i, 1);
  }

  /** Whether write `seq` has been answered. */
  answered(seq: number): boolean {
    return this.entries.some((e) => e.seq === seq && e.answered);
  }

  /** The writes still waiting for a reply they must get (required), or may (`all`). */
  open(all = false): number[] {
    return this.entries.filter((e) => !e.answered && !e.expired && e.expect.types.length > 0 && (all || e.expect.required)).map((e) => e.seq);
  }

  /** Every line that expected a reply and got none, expired or not, in the order sent. */
  unanswered(): number[] {
    return this.entries.filter((e) => !e.answered && e.expect.types.length > 0).map((e) => e.seq);
  }

  /**
   * Write `seq` got no reply by its deadline. In lock-step nothing after it is
   * paired with it (the next request's reply must not be taken for its late
   * one); with correlation its id still pairs a late reply.
   */
  expire(seq: number): void {
    if (this.correlated) return;
    const e = this.entries.find((x) => x.seq === seq);
    if (e && !e.answered) e.expired = true;
  }

  /** What `expect` write `seq` was sent with. */
  expectOf(seq: number): Expect | undefined {
    return this.entries.find((e) => e.seq === seq)?.expect;
  }

  /**
   * Pair a reply of type `type` carrying `id` (undefined: none). `bound`: the
   * write the transport itself pairs it with (HTTP's response to a request),
   * which decides whatever the reply says.
   */
  pair(type: string, id: unknown, bound?: number): Pairing {
    if (bound !== undefined) {
      const e = this.entries.find((x) => x.seq === bound);
      if (!e) return { kind: "unasked" };
      if (e.answered) return { kind: "duplicate", seq: bound };
      e.answered = true;
      return { kind: "answers", seq: bound };
    }
    const accepts = (e: Entry): boolean => !e.answered && !e.expired && e.expect.types.includes(type);
    const inTurn = (e: Entry): boolean => accepts(e) && !(e.expect.chase && type !== "frames");
    if (this.correlated && id !== undefined) {
      const same = this.entries.filter((e) => e.expect.id !== undefined && e.expect.id === id);
      const mine = same.find(accepts);
      if (mine) {
        mine.answered = true;
        return { kind: "answers", seq: mine.seq };
      }
      const open = same.find((e) => !e.answered && !e.expired && e.expect.types.length > 0);
      if (open) return { kind: "wrong-type", seq: open.seq };
      const done = same.find((e) => e.answered);
      // The id of a request already answered that is another spelling (Unicode normalisation) of the id of the
      // request still waiting: that request's answer, its id altered (H4's to judge), not a second answer.
      const altered = done ? this.entries.find((e) => inTurn(e) && e.expect.required && spelling(e.expect.id, id)) : undefined;
      if (altered) {
        altered.answered = true;
        return { kind: "answers", seq: altered.seq };
      }
      // A line whose id a reply need not echo, taken by order by an id-less reply, now answered under its id: the
      // reply under its id is its own (the id-less one was likelier another line's), never a duplicate.
      if (done?.byOrder && done.expect.loose) return { kind: "answers", seq: done.seq };
      if (done) return { kind: "duplicate", seq: done.seq };
    }
    // By order: the oldest open line this type answers. With correlation that is a reply whose id names no request (dropped
    // or altered: H4's to judge), paired first with a line that carried no id a reply could echo (a line that is no JSON),
    // then with a request that must be answered (the one a probe waits on). A line that carried an id and may go
    // unanswered is answered only under its id: a late reply to another line never takes its place.
    // A line whose chase was answered since is bounded: in lock-step nothing after that answer is its (replies come in
    // order); with correlation an id-less reply goes first to a line still unbounded (a prompt reply), then in order.
    const chased = (e: Entry): boolean => this.entries.some((x) => x.seq > e.seq && x.expect.chase && x.answered);
    const candidates = this.entries.filter(inTurn);
    // A line whose reply may echo its id or not is taken by order last among those that carried none.
    const idless = [...candidates.filter((e) => e.expect.id === undefined), ...candidates.filter((e) => e.expect.loose)];
    const pick = this.correlated
      ? (idless.find((e) => !chased(e)) ?? idless[0] ?? candidates.find((e) => e.expect.required))
      : candidates.find((e) => !chased(e));
    if (pick) {
      pick.answered = true;
      pick.byOrder = true;
      return { kind: "answers", seq: pick.seq };
    }
    return { kind: "unasked", ...this.follows() };
  }

  /**
   * The line a reply that answers nothing most likely follows: the last line
   * sent that may go unanswered (a lenient provider answering a notification,
   * a reader that split a malformed line in two), while the query chasing it
   * is unanswered; once that query is answered, a surplus no longer follows
   * it, and is attributed to the last such line that got a reply (a late
   * second reply), else the last line sent.
   */
  private follows(): { after?: number } {
    const maybe = this.entries.filter((e) => !e.expect.required && !e.expect.chase);
    const last = maybe.at(-1);
    const chasedSince = last !== undefined && this.entries.some((e) => e.seq > last.seq && e.expect.chase && e.answered);
    const pick = (last && !chasedSince ? last : maybe.filter((e) => e.answered).at(-1)) ?? this.entries.at(-1);
    return pick ? { after: pick.seq } : {};
  }
}
