/**
 * Defect: fails on a frame whose kind is not one of the base FrameKinds.
 * Breaks U2: "A host that receives an unrecognised kind MUST treat the frame as opaque evidence — it MAY decline to
 * specialise its handling, but MUST NOT fail to deserialise, reject, or crash".
 */
import { BASE_KINDS } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

const BASE: readonly string[] = BASE_KINDS;

export default defineHostMode({
  name: "U2-reject-unknown-kind",
  defect: "exits 1 on a frame whose kind is not a base kind (snippet, symbol, fact, doc, memory, episode, graph)",
  expectFail: ["host:U2"],
  finding: { code: "host:U2.ending-differs", params: { ending: { kind: "exit", code: 1 } } },
  apply: () => ({
    reject(env) {
      if (env.type !== "frames" || !isObj(env.result) || !Array.isArray(env.result.frames)) return undefined;
      const odd = env.result.frames.find((f) => isObj(f) && !BASE.includes(f.kind as string));
      return odd === undefined ? undefined : `frame ${JSON.stringify(odd.id)} has unknown kind ${JSON.stringify(odd.kind)}`;
    },
  }),
});
