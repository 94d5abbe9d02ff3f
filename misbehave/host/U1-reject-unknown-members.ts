/**
 * Defect: validates what a provider sends authoring-strict, rejecting an ack or frames envelope carrying a member it
 * does not know (the member sets are the envelope schema's).
 * Breaks U1: "A receiver MUST ignore an object member it does not recognise, in any envelope, capability set, frame, or
 * nested object — it MUST NOT reject the message on that basis."
 */
import schema from "../../schema/contextgraph-envelope.schema.json" with { type: "json" };
import { isObj, type Obj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

const members = (def: keyof typeof schema.$defs): string[] => Object.keys((schema.$defs[def] as { properties?: Obj }).properties ?? {});

/** What the schema defines, per object the host reads. */
const KNOWN = {
  handshake_ack: members("HandshakeAck"),
  provider: members("ProviderInfo"),
  data_flow: members("DataFlow"),
  capabilities: members("Capabilities"),
  frames: members("Frames"),
  result: members("ContextQueryResult"),
  frame: members("ContextFrame"),
};

/** The first member of `o` not in `known`, named by where it sits. */
function stray(o: unknown, known: string[], where: string): string | undefined {
  if (!isObj(o)) return undefined;
  const k = Object.keys(o).find((m) => !known.includes(m));
  return k === undefined ? undefined : `unexpected member ${JSON.stringify(k)} in ${where}`;
}

export default defineHostMode({
  name: "U1-reject-unknown-members",
  defect: "rejects (exit 1, unexpected member) a handshake_ack or frames envelope carrying a member the schema does not define",
  expectFail: ["host:U1"],
  finding: { code: "host:U1.ending-differs", params: { ending: { kind: "exit", code: 1 } } },
  apply: () => ({
    reject(env) {
      if (env.type === "handshake_ack") {
        const provider = isObj(env.provider) ? env.provider : {};
        return (
          stray(env, KNOWN.handshake_ack, "handshake_ack") ??
          stray(provider, KNOWN.provider, "handshake_ack.provider") ??
          stray(provider.data_flow, KNOWN.data_flow, "handshake_ack.provider.data_flow") ??
          stray(env.capabilities, KNOWN.capabilities, "handshake_ack.capabilities")
        );
      }
      if (env.type === "frames") {
        const result = isObj(env.result) ? env.result : {};
        const frames = Array.isArray(result.frames) ? result.frames : [];
        return (
          stray(env, KNOWN.frames, "frames") ??
          stray(result, KNOWN.result, "frames.result") ??
          frames.map((f, i) => stray(f, KNOWN.frame, `frames.result.frames[${i}]`)).find((r) => r !== undefined)
        );
      }
      return undefined;
    },
  }),
});
