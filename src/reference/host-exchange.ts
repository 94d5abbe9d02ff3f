/**
 * The reference host's exchange with one provider, in order: the handshake
 * (an ack of another family refused, or read past, as the host decides), the
 * gates, the query (retried as its errors warrant, its answer audited against
 * the budget and its attestations checked), and a verify where the provider
 * declares it. Every read is bounded by the host's deadline for its phase;
 * what ended the exchange says how the provider is let go. The behaviours
 * decide what is sent and how each answer is taken; this only orders them.
 */
import { parseObj, type Obj } from "../protocol/envelope.ts";
import { HOST_ENV } from "../protocol/host-scenarios.ts";
import { sleep, type Channel, type Received } from "./host-channel.ts";
import { framesOf, shown, verdictsOf, type RefHost, type Round } from "./host-contract.ts";

/** How the exchange ended, and so how the provider is let go. */
export interface Outcome {
  code: number;
  /** shutdown: send shutdown, then close; close: close its input; kill: kill it now. */
  end: "shutdown" | "close" | "kill";
}

type Read = Exclude<Received, { kind: "line" }> | { kind: "envelope"; env: Obj } | { kind: "refused"; why: string };

/** Read until an envelope `wanted` accepts arrives, or nothing more can: other envelopes (an unknown notification, a reply to something else) are ignored (§2), unless the host refuses one. */
async function read(h: RefHost, ch: Channel, ms: number | undefined, wanted: (env: Obj) => boolean): Promise<Read> {
  const until = ms === undefined ? undefined : Date.now() + ms;
  for (;;) {
    const r = await ch.next(until === undefined ? undefined : Math.max(0, until - Date.now()));
    if (r.kind !== "line") return r;
    const env = r.overLong ? undefined : parseObj(r.text);
    if (env === undefined || typeof env.type !== "string") {
      h.log(`reference-host: ignored a line from the provider that is not a JSON envelope${r.overLong ? " (over the line cap)" : ""}`);
      continue;
    }
    if (wanted(env)) return { kind: "envelope", env };
    const refused = h.unexpected(env);
    if (refused !== undefined) return { kind: "refused", why: refused };
  }
}

/** An answer to a request: of the types it may take, and with the request's id if it carries one (a lock-step answer carries none). */
const answers =
  (req: Obj, types: readonly string[]) =>
  (env: Obj): boolean =>
    types.includes(env.type as string) && (env.id === undefined || env.id === req.id);

/** Report a typed error on stderr, as the ending `end`. */
export function fail(h: RefHost, code: string, message: string, end: Outcome["end"]): Outcome {
  h.log(`reference-host: error ${code}: ${message}`);
  return { code: 1, end };
}

/** A read that brought no envelope, as an ending. */
function noAnswer(h: RefHost, r: Exclude<Read, { kind: "envelope" }>, ms: number | undefined): Outcome {
  switch (r.kind) {
    case "refused":
      return fail(h, "bad_response", r.why, "shutdown");
    case "timeout":
      return fail(h, "timeout", `no answer within ${ms} ms`, "kill");
    case "end":
      return fail(h, r.unreachable ? "unreachable" : "provider_crashed", r.why, "close");
    case "none":
      return fail(h, "no_answer", `the provider answered with no envelope (HTTP ${r.status})`, "shutdown");
    case "http-error":
      return r.status === 401
        ? fail(h, "unauthorized", `the provider answered HTTP 401 (set ${HOST_ENV.token} to the token it expects)`, "close")
        : fail(h, "bad_response", `the provider answered HTTP ${r.status} with no envelope`, "close");
  }
}

/** The exchange with one provider: everything the host sends it and how it takes each answer; `round` gathers what its query came to. */
export async function exchange(h: RefHost, ch: Channel, round: Round): Promise<Outcome> {
  ch.send(h.serialize(h.handshake()));
  let ms = h.deadline("handshake");
  let ack: Obj;
  for (let attempt = 1; ; ) {
    const r = await read(h, ch, ms, (env) => env.type === "handshake_ack" || (env.type === "error" && env.id === undefined));
    if (r.kind !== "envelope") return noAnswer(h, r, ms);
    if (r.env.type === "error") {
      // §10: a refused handshake is sent again only as the host decides for its class (the honest host never: incompatible_version leaves the provider unusable).
      const again = h.handshakeRetries(h.classify(r.env.code));
      if (attempt > again) return fail(h, shown(r.env.code ?? "internal"), shown(r.env.message), "close");
      h.log(`reference-host: retrying the handshake (${attempt} of ${again})`);
      await sleep(h.backoffMs(attempt++));
      ch.send(h.serialize(h.handshake()));
      ms = h.deadline("handshake");
      continue;
    }
    const rejected = h.reject(r.env);
    if (rejected !== undefined) return fail(h, "bad_response", rejected, "close");
    if (!h.compatible(r.env.protocol_version)) {
      const v = h.onWrongFamily(r.env);
      if (v === "keep-reading") {
        ms = undefined;
        continue;
      }
      // An unusable provider gets no envelope of a family it does not speak: its input is closed.
      return fail(h, v.code, v.message, "close");
    }
    ack = r.env;
    break;
  }
  round.ack = ack;

  const refused = h.refusal(ack);
  if (refused) return fail(h, refused.code, refused.message, "shutdown");

  for (const line of h.beforeQuery(ack)) {
    ch.send(line);
    const r = await read(h, ch, h.deadline("query"), () => true);
    if (r.kind === "end") return noAnswer(h, r, undefined);
  }

  round.requests = 0;
  const asked = await ask(h, ch, ack, round);
  if (asked) return asked;

  const v = h.verifyRequest(ack, round.frames, (round.requests = (round.requests ?? 0) + 1));
  if (v) {
    ch.send(h.serialize(v));
    const vms = h.deadline("verify");
    const r = await read(h, ch, vms, answers(v, ["verified", "error"]));
    if (r.kind !== "envelope") return noAnswer(h, r, vms);
    // A verify the provider could not serve is reported, not fatal: every frame it held goes unconfirmed, to be fetched again.
    if (r.env.type === "error") h.onError(r.env);
    else h.onVerified(r.env);
    round.verdicts = r.env.type === "error" ? [] : verdictsOf(r.env);
  }
  return { code: 0, end: "shutdown" };
}

/** Query a provider (again), retrying as its errors warrant: the frames taken go to `round`; an ending where none were. */
export async function ask(h: RefHost, ch: Channel, ack: Obj, round: Round): Promise<Outcome | undefined> {
  for (let attempt = 1; ; attempt++) {
    const q = h.query(ack, (round.requests = (round.requests ?? 0) + 1));
    round.askedAt = Date.now();
    ch.send(h.serialize(q));
    round.queried = true;
    const qms = h.deadline("query");
    const r = await read(h, ch, qms, answers(q, ["frames", "error"]));
    if (r.kind !== "envelope") return noAnswer(h, r, qms);
    if (r.env.type === "error") {
      const cls = h.onError(r.env);
      if (attempt > h.retries(cls)) return { code: 1, end: "shutdown" };
      h.log(`reference-host: retrying the query (${attempt} of ${h.retries(cls)})`);
      await sleep(h.backoffMs(attempt));
      continue;
    }
    const rejected = h.reject(r.env);
    if (rejected !== undefined) {
      round.rejected += framesOf(r.env).length;
      return fail(h, "bad_response", rejected, "shutdown");
    }
    // B2: a provider over budget loses every frame of the answer, loudly; none is kept to fit.
    const over = h.budgetAudit(q, r.env, ack);
    if (over !== undefined) {
      round.rejected += framesOf(r.env).length;
      return fail(h, over.code, over.message, "shutdown");
    }
    const frames = h.onFrames(r.env, ack);
    round.rejected += framesOf(r.env).length - frames.length;
    round.frames = frames;
    return undefined;
  }
}
