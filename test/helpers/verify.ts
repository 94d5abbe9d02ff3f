/** Canned runs of probe verify, for the verify checks (V1–V4). */
import { VERIFY_STEPS, type VerifyStep } from "../../checks/kit/verify.ts";
import { digestOfText } from "../../src/math/digest.ts";
import { flipCase, identities, mutate } from "../../src/probe/verify.ts";
import { type Obj } from "../../src/protocol/envelope.ts";
import { HANDSHAKE, NEVER_SERVED_ID, VERIFY } from "../../src/protocol/probes.ts";
import { ACK, frame, frames, query, tx, type TranscriptBuilder } from "./transcript.ts";

export const VERIFY_ACK = { ...ACK, capabilities: { query: { kinds: [] }, correlation: true, verify: true } };
const DIGEST_1 = digestOfText("abcd");
const DIGEST_2 = digestOfText("efgh");
export const SERVED = [frame({ id: "frm_1", content_digest: DIGEST_1 }), frame({ id: "frm_2", content: "efgh", content_digest: DIGEST_2 })];
/** The identities of the two frames the identity query serves. */
export const IDS = identities("canned", SERVED as Obj[]);

/** What the probe sends in each step, as it builds it. */
export const REQUESTED: Record<VerifyStep, Obj[]> = {
  [VERIFY.steps.verifyServed]: IDS,
  [VERIFY.steps.verifyMutated]: IDS.map((i) => ({ ...i, content_digest: mutate(i.content_digest as string) })),
  [VERIFY.steps.verifyNeverServed]: [{ provider_id: "canned", frame_id: NEVER_SERVED_ID, content_digest: digestOfText(NEVER_SERVED_ID) }],
  [VERIFY.steps.verifyCase]: IDS.map((i) => ({ ...i, frame_id: flipCase(i.frame_id as string) })),
  [VERIFY.steps.verifyDigestless]: IDS.map(({ content_digest: _d, ...i }) => i),
};

/** An honest verdict for an identity requested in a step. */
function honest(step: VerifyStep, id: Obj, i: number): Obj {
  if (step === VERIFY.steps.verifyServed) return { frame: id, status: "valid" };
  if (step === VERIFY.steps.verifyMutated) return { frame: id, status: "stale", replacement_digest: IDS[i]!.content_digest };
  if (step === VERIFY.steps.verifyDigestless) return { frame: id, status: "stale", replacement_digest: IDS[i]!.content_digest };
  return { frame: id, status: "gone" };
}

const verified = (step: VerifyStep, verdicts: Obj[]): object => ({ type: "verified", id: step, response: { verdicts } });

export type VerifyReplies = Partial<Record<VerifyStep, object | null | ((verdicts: Obj[]) => Obj[])>>;

/**
 * Probe verify in the shared session: handshake 2–3, the identity query 4/5,
 * verify-served 6/7, verify-mutated 8/9, the same query again 10/11
 * (served-again, unless `again` is null), verify-never-served 12/13,
 * verify-case-flipped 14/15, verify-digestless 16/17. A reply
 * is a whole envelope, a rewrite of the honest verdicts, or null (no reply:
 * the probe stops).
 */
export function verify(replies: VerifyReplies = {}, opts: { ack?: object; served?: object[]; again?: object[] | null } = {}): () => TranscriptBuilder {
  return () => {
    const served = opts.served ?? SERVED;
    const b = verifySession(opts.ack ?? VERIFY_ACK);
    if (opts.ack) return b;
    b.send(VERIFY.steps.served, query("verify-q")).recv(frames("verify-q", served));
    if (identities("canned", served as Obj[]).length === 0) return b;
    for (const step of VERIFY_STEPS) {
      b.send(step, { type: "verify", id: step, request: { frames: REQUESTED[step] } });
      const r = replies[step];
      if (r === null) return b.note("timeout", { waitedMs: 800, expecting: "a reply" });
      const mine = REQUESTED[step].map((id, i) => honest(step, id, i));
      b.recv(typeof r === "function" ? verified(step, r(mine)) : (r ?? verified(step, mine)));
      // The same query again, as the probe sends it after verify-mutated: the same frames unless told otherwise (null: none).
      if (step === VERIFY.steps.verifyMutated && opts.again !== null)
        b.send(VERIFY.steps.servedAgain, query("verify-q-again")).recv(frames("verify-q-again", opts.again ?? served));
    }
    return b;
  };
}

/** The shared session's handshake (2–3) answered with `ack`, then probe verify begins. */
export const verifySession = (ack: object = VERIFY_ACK): TranscriptBuilder => tx().probe(HANDSHAKE.name, "shared").handshake(ack).probe(VERIFY.name, "shared");

/** The ack declares no verify capability. */
export const notDeclared = verify({}, { ack: ACK });
/** The identity query serves a frame without a content_digest: nothing to verify. */
export const undigested = verify({}, { served: [frame()] });
