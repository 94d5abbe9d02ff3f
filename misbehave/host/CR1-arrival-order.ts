/**
 * Defect: composes frames in the order they arrived, provider after provider, each answer's frames as listed.
 * Breaks context-reuse §1: "A host that composes a set of frames into a single context block: MUST emit them in
 * canonical order, so an unchanged frame set renders byte-identically across turns and across hosts"; and no ranking
 * policy protocol-surface §7 permits gives an order that follows arrival, so it fails under both.
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "CR1-arrival-order",
  defect: "composes its context block in arrival order (its providers in the order given, each answer's frames as listed), not canonical FrameId order",
  expectFail: ["host:CR1-order"],
  finding: {
    code: "host:CR1-order.follows-arrival",
    params: { frames: 8, place: 0, first: { frame_id: "fixture:doc-9" }, second: { frame_id: "fixture:Zeta" } },
  },
  apply: () => ({
    order: (held) => held,
  }),
});
