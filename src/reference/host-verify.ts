/**
 * The reference host's verify and the second turn it takes where a verify
 * was answered (context-reuse §4): it keeps the stored body of a frame verify
 * called valid and of no other (V3; a verdict left out is unknown, V2; a
 * stale or gone frame is never served again, V4; a digest-less frame was
 * never asked, and is never reused unchecked, D3), and queries the provider
 * again where a dropped frame is worth fetching (all but a gone one).
 * Verdicts are matched to frames by the identity they echo, never by
 * position (§9). It takes that second turn too where a frame it holds
 * outlived the validity its provider gave it (valid_to came while it held
 * the frame): against a provider without verify, every held frame is then
 * dropped and queried again, never reused unchecked (context-reuse §4).
 */
import { capabilities, providerName } from "../protocol/caps.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";
import type { Channel } from "./host-channel.ts";
import { shown, verdictsOf, type Behaviours, type RefHost, type Round } from "./host-contract.ts";
import { ask, type Outcome } from "./host-exchange.ts";

export const verify: Behaviours<"wantsVerify" | "identity" | "verifyRequest" | "onVerified" | "verdictOf" | "outlived" | "reuses" | "requeries"> = {
  wantsVerify(ack) {
    return capabilities(ack).verify === true;
  },

  identity(ack, frame) {
    if (typeof frame.content_digest !== "string") return undefined;
    return { provider_id: providerName(ack), frame_id: frame.id, content_digest: frame.content_digest };
  },

  verifyRequest(ack, frames, n) {
    if (frames.length === 0 || !this.wantsVerify(ack)) return undefined;
    const identities = frames.map((f) => this.identity(ack, f)).filter((i): i is Obj => i !== undefined);
    if (identities.length === 0) return undefined;
    const id = this.requestId(ack, n);
    return { type: "verify", ...(id !== undefined ? { id } : {}), request: { frames: identities } };
  },

  onVerified(env) {
    for (const v of verdictsOf(env)) this.print(`verified ${shown(isObj(v.frame) ? v.frame.frame_id : undefined)} ${shown(v.status)}`);
  },

  verdictOf(ack, frame, verdicts) {
    const id = this.identity(ack, frame);
    if (id === undefined) return undefined;
    // Matched by the identity each verdict echoes, never by position (§9).
    return verdicts.find(
      (v) => isObj(v.frame) && v.frame.provider_id === id.provider_id && v.frame.frame_id === id.frame_id && v.frame.content_digest === id.content_digest,
    );
  },

  outlived(round, now) {
    // Validity that ended before the query was sent says nothing of a change while the frame was held.
    const since = round.askedAt ?? now;
    return round.frames.some((f) => {
      const until = typeof f.valid_to === "string" ? Date.parse(f.valid_to) : Number.NaN;
      return until >= since && until <= now;
    });
  },

  reuses(frame, verdict) {
    // V3: reuse only on an explicit valid; V2: no verdict is unknown; D3: a digest-less frame is never revalidated;
    // context-reuse §4: a provider without verify gives no verdict, so nothing of it is reused unchecked.
    return typeof frame.content_digest === "string" && verdict?.status === "valid";
  },

  requeries(dropped) {
    // A gone frame is not there to fetch again; anything else dropped may have changed, or could not be checked.
    return dropped.some((d) => d.verdict?.status !== "gone");
  },
};

/** What one provider's part of the second turn came to: the stored frames kept, and the round of its query again, if one went. */
export interface Turn {
  kept: Obj[];
  again: Round & { ack: Obj };
}

/**
 * The second turn, after a verify was answered (context-reuse §4): each
 * provider's held frames are kept only where their verdict permits reuse
 * (an explicit valid), the rest dropped, and the provider is queried again
 * where a dropped frame is worth fetching. A provider that verified nothing
 * has nothing confirmed: all its frames are dropped, as a digest-less frame
 * is. Where the query again did not end well, its ending too: what was kept
 * is still composed, and the query again (an answer dropped over budget,
 * say) still reported.
 */
export async function secondTurn(h: RefHost, ch: Channel, round: Round & { ack: Obj }): Promise<Turn & { outcome?: Outcome }> {
  const judged = round.frames.map((frame) => ({ frame, verdict: h.verdictOf(round.ack, frame, round.verdicts ?? []) }));
  const kept = judged.filter((j) => h.reuses(j.frame, j.verdict, round.ack)).map((j) => j.frame);
  const dropped = judged.filter((j) => !h.reuses(j.frame, j.verdict, round.ack));
  const again: Round & { ack: Obj } = { ack: round.ack, queried: false, frames: [], rejected: 0, requests: round.requests ?? 0 };
  if (dropped.length > 0) {
    const why = dropped.map(
      (d) =>
        `${shown(d.frame.id)} (${typeof d.frame.content_digest !== "string" ? "no content_digest" : !h.wantsVerify(round.ack) ? "no verify declared" : shown(d.verdict?.status ?? "no verdict")})`,
    );
    h.log(`reference-host: not reusing ${dropped.length} held frame${dropped.length === 1 ? "" : "s"}: ${why.join(", ")}`);
  }
  if (h.requeries(dropped, round.ack)) {
    const ended = await ask(h, ch, round.ack, again);
    if (ended) return { kept, again, outcome: ended };
  }
  return { kept, again };
}
