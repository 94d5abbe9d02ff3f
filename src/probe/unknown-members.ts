import { HOST_VERSION } from "../math/version.ts";
import type { Obj } from "../transcript/view.ts";
import { capabilities } from "../protocol/caps.ts";
import { awaitAnswer, defineProbe, query, type ProbeContext } from "./probe.ts";

/** Members no revision defines, at every level a host message has. */
export const DECORATION = {
  envelope: { "acme:trace": { span: "7f3a", sampled: true } },
  query: { "acme:hint": { boost: ["docs/"], weight: 0.5 }, future_field: [1, 2, 3] },
  handshake: { client: { name: "cgp-conform", "acme:build": 7 } },
} as const;

/**
 * U1: "A receiver MUST ignore an object member it does not recognise, in any
 * envelope, capability set, frame, or nested object." The same query, plain
 * and decorated, must get the same answer; the handshake is decorated too.
 */
export default defineProbe({
  name: "unknown-members",
  summary: "handshakes with unknown members, then sends the same query plain and with unknown members at the envelope and query level",
  handshake: false,
  shared: false,
  async run(s) {
    s.send("handshake", { type: "handshake", protocol_version: HOST_VERSION, ...DECORATION.handshake });
    const ack = await s.next("handshake_ack");
    if (ack?.type !== "handshake_ack") return;
    const ctx: ProbeContext = { ack, correlation: capabilities(ack).correlation === true, graceMs: s.timeoutMs, transport: s.transport };
    const plain = query(ctx, "plain-1", {});
    s.send("plain", plain);
    if (!(await awaitAnswer(s, "plain-1"))) return;
    const decorated: Obj = query(ctx, "decorated-1", {});
    s.send("decorated", { ...decorated, ...DECORATION.envelope, query: { ...(decorated.query as Obj), ...DECORATION.query } });
    await awaitAnswer(s, "decorated-1");
  },
});
