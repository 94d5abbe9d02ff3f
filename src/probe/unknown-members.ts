import { HOST_VERSION } from "../math/version.ts";
import { capabilities } from "../protocol/caps.ts";
import { defineProbe, query, type ProbeContext } from "./probe.ts";
import { type Obj } from "../protocol/envelope.ts";
import { DECORATION, HANDSHAKE_STEP, UNKNOWN_MEMBERS } from "../protocol/probes.ts";

/**
 * U1: "A receiver MUST ignore an object member it does not recognise, in any
 * envelope, capability set, frame, or nested object." The same query, plain
 * and decorated, must get the same answer; the handshake is decorated too.
 * The plain query is sent again after the decorated one: a provider that
 * retains what it receives (data_flow.writes) or serves a live index may
 * answer each query with more frames than the last, and only two plain
 * answers that agree show what the plain query is answered with.
 */
export default defineProbe({
  ...UNKNOWN_MEMBERS,
  async run(s, outer) {
    s.send(HANDSHAKE_STEP, { type: "handshake", protocol_version: HOST_VERSION, ...DECORATION.handshake });
    const ack = await s.reply();
    if (ack?.type !== "handshake_ack") return;
    const ctx: ProbeContext = { ...outer, ack, correlation: capabilities(ack).correlation === true };
    const plain = query(ctx, "plain-1", {});
    s.send(UNKNOWN_MEMBERS.steps.plain, plain);
    if (!(await s.reply()) && s.stalled) return;
    const decorated: Obj = query(ctx, "decorated-1", {});
    s.send(UNKNOWN_MEMBERS.steps.decorated, { ...decorated, ...DECORATION.envelope, query: { ...(decorated.query as Obj), ...DECORATION.query } });
    if (!(await s.reply()) && s.stalled) return;
    s.send(UNKNOWN_MEMBERS.steps.plainAgain, query(ctx, "plain-2", {}));
    await s.reply();
  },
});
