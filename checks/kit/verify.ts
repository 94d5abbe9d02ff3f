import { type Evidence } from "./check.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { type Message, type ProbeView } from "../../src/transcript/view.ts";
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { show } from "./show.ts";
import { findings } from "./findings.ts";
import { VERIFY } from "../../src/protocol/probes.ts";

export const VERIFY_STEPS = [
  VERIFY.steps.verifyServed,
  VERIFY.steps.verifyMutated,
  VERIFY.steps.verifyNeverServed,
  VERIFY.steps.verifyCase,
  VERIFY.steps.verifyDigestless,
] as const;
export type VerifyStep = (typeof VERIFY_STEPS)[number];

export interface VerifyExchange {
  step: VerifyStep;
  sent: Message;
  identities: Obj[];
  reply?: Message;
  verdicts: Obj[];
}

export function verifyExchanges(p: ProbeView): VerifyExchange[] {
  return VERIFY_STEPS.flatMap((step) => {
    const sent = p.sent(step)[0];
    if (!sent) return [];
    const req = isObj(sent.env.request) && Array.isArray(sent.env.request.frames) ? sent.env.request.frames.filter(isObj) : [];
    const reply = p.answer(step, ["verified", "error"]);
    const resp = reply?.env.type === "verified" && isObj(reply.env.response) ? reply.env.response : undefined;
    const verdicts = Array.isArray(resp?.verdicts) ? resp.verdicts.filter(isObj) : [];
    return [{ step, sent, identities: req, reply, verdicts }];
  });
}

/**
 * The verdict that echoes this identity in full (§9: "Each verdict echoes the
 * identity it answers in full"). An absent digest and a null one are the same
 * absence; an identity sent without a digest may be echoed with the digest the
 * provider serves now, so for it provider and frame id decide.
 */
export function verdictFor(id: Obj, verdicts: Obj[]): Obj | undefined {
  const digest = id.content_digest ?? undefined;
  return verdicts.find((v) => {
    const f = isObj(v.frame) ? v.frame : {};
    return f.provider_id === id.provider_id && f.frame_id === id.frame_id && (digest === undefined || (f.content_digest ?? undefined) === digest);
  });
}

export const NO_IDENTITY = "there was no identity to verify: no served frame carried a content_digest, or the provider declared no name";

/** The words of the verify kit's own findings (V2–V4). */
export const verifying = findings({
  "identities-unanswered": {
    untestable: true,
    says: (p: { line: number; why: string }) => `the query for frames to verify (line ${p.line}) got no answer: ${p.why}`,
  },
});

/** The query for frames to verify went unanswered: nothing about verify could be seen. */
export function unservedIdentities(p: ProbeView): Evidence[] | undefined {
  const q = p.sent(VERIFY.steps.served)[0];
  if (!q || p.answer(VERIFY.steps.served, ["frames", "error"])) return undefined;
  const s = p.silence(VERIFY.steps.served);
  return [verifying.say("identities-unanswered", { line: q.n, why: s.why }, { lines: [q.n, ...s.lines] })];
}

export const identityName = (id: Obj): string => `(${show(id.provider_id)}, ${show(id.frame_id)}, ${show(id.content_digest)})`;

/**
 * Score a rule over every verdict received, after the shared preconditions:
 * verify must be declared and the probe must have had identities to send.
 */
export function perVerdict(p: ProbeView, rule: (v: Obj, x: VerifyExchange) => Evidence | undefined): Evidence[] | { skip: string } {
  if (capabilities(p.ack()?.env).verify !== true) return { skip: "capabilities.verify is not declared: a host re-queries instead" };
  const xs = verifyExchanges(p);
  if (xs.length === 0) return unservedIdentities(p) ?? { skip: NO_IDENTITY };
  const out = xs.flatMap((x) => x.verdicts.map((v) => rule(v, x)).filter((e): e is Evidence => e !== undefined));
  return out.length > 0 ? out : { skip: "no verdict was received" };
}
