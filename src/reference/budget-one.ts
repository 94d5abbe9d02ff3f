/**
 * The provider of budget-breaker-one (B2 against a host that takes one
 * provider): it declares capabilities.verify and answers its first query
 * honestly, two small frames within any budget (one with a content_digest,
 * one without), and every later query as budget-breaker's first provider
 * does, with frames whose summed token_cost exceeds max_tokens while all but
 * one would fit (B1 its one fault: B3, B4 and Q1 kept). Its sources never
 * change: a verify calls the digest-bearing frame valid, and the digest-less
 * one unknown (it cannot be revalidated, V1), so a host that verifies before
 * it composes again has a frame to keep and one to fetch again, and meets
 * the breach when it does. State is the session's, as reuse's.
 */
import { budgetTokens } from "../math/budget.ts";
import { digestOfText } from "../math/digest.ts";
import { bulkCosts } from "../protocol/adversarial.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";
import { bulkFrame, frameOf } from "./adversarial.ts";
import { namedAck } from "./compose.ts";
import { error, reply, servingQueries, type Provider } from "./provider.ts";

export const LUMPY = "cgp-conform-lumpy";

/** The first answer's frames: one with a content_digest, one without. */
const HONEST: Obj[] = [
  frameOf(LUMPY, { id: "fixture:lumpy-1", title: "Disk quota", content: "Each build agent may use 40 GiB of disk (cgpmark-bo-01).", score: 0.9 }),
  (() => {
    const content = "Agents are recycled after 200 builds (cgpmark-bo-02).";
    const { content_digest: _none, ...rest } = frameOf(LUMPY, { id: "fixture:lumpy-2", title: "Agent recycling", content, score: 0.7 });
    return { ...rest, token_cost: budgetTokens(content) };
  })(),
];

/** The verdict on one identity: valid for the digest-bearing frame as served, unknown for anything else. */
function verdictOn(identity: Obj): Obj {
  const frame = {
    provider_id: identity.provider_id,
    frame_id: identity.frame_id,
    ...(identity.content_digest !== undefined ? { content_digest: identity.content_digest } : {}),
  };
  const held = HONEST.find((f) => f.id === identity.frame_id && typeof f.content === "string");
  const valid = held !== undefined && typeof identity.content_digest === "string" && identity.content_digest === digestOfText(held.content as string);
  return { frame, status: valid && held.content_digest !== undefined ? "valid" : "unknown" };
}

/** The behaviours of budget-breaker-one's provider, fresh for each session: its ack (the scenario's base ack, named, declaring verify), its answers and verdicts. */
export function budgetOneBehaviour(base: (p: Provider) => Obj): Partial<Provider> & ThisType<Provider> {
  let asked = 0;
  return {
    ack() {
      const ack = namedAck(base(this), LUMPY);
      return { ...ack, capabilities: { ...(ack.capabilities as Obj), verify: true } };
    },
    onQuery: servingQueries((q) => {
      asked++;
      const docs = q.kinds.length === 0 || q.kinds.includes("doc");
      if (!docs) return { frames: [], truncated: false };
      if (asked === 1) {
        const frames: Obj[] = [];
        let spent = 0;
        for (const f of HONEST) {
          if (frames.length >= q.max_frames || spent + (f.token_cost as number) > q.max_tokens) continue;
          frames.push(f);
          spent += f.token_cost as number;
        }
        return { frames, truncated: frames.length < HONEST.length };
      }
      return { frames: bulkCosts(q.max_tokens, q.max_frames).map((c, i) => frameOf(LUMPY, bulkFrame(i + 1, c))), truncated: false };
    }),
    onVerify(env) {
      const frames = isObj(env.request) && Array.isArray(env.request.frames) ? env.request.frames : undefined;
      if (!frames || !frames.every(isObj)) return [error(env, "bad_request", "verify.request.frames must be an array of frame identities")];
      return [reply(env, { type: "verified", response: { verdicts: frames.map(verdictOn) } })];
    },
  };
}
