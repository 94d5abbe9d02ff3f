/**
 * Defect: an answer holding one frame whose kind is not a base kind is dropped whole (nothing of it printed or
 * composed), and the host carries on and exits 0, as a host that fails to decode the answer and reports zero frames.
 * Breaks U2: "A host that receives an unrecognised kind MUST treat the frame as opaque evidence — it MAY decline to
 * specialise its handling, but MUST NOT fail to deserialise, reject, or crash". Its exit status is lock-step's: only
 * what it composed shows the defect.
 */
import { BASE_KINDS } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

const BASE: readonly string[] = BASE_KINDS;

export default defineHostMode({
  name: "U2-drop-whole-answer",
  defect: "keeps nothing of an answer that holds a frame of a kind not in the base vocabulary, and exits 0",
  expectFail: ["host:U2"],
  finding: { code: "host:U2.answer-dropped", params: { block: null, known: true } },
  apply: (honest) => ({
    onFrames(env, ack) {
      const result = isObj(env.result) ? env.result : {};
      const frames = Array.isArray(result.frames) ? result.frames : [];
      if (frames.some((f) => isObj(f) && !BASE.includes(f.kind as string))) return [];
      return honest.onFrames.call(this, env, ack);
    },
  }),
});
