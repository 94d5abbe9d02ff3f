/**
 * Defect: a frame whose kind is not a base kind is composed under the kind doc, its own kind string lost.
 * Breaks U2: "and if it re-emits the frame it MUST preserve the original kind string verbatim". It takes the frame as
 * opaque evidence otherwise (composed, nothing rejected): only the kind beside it in the block shows the defect.
 */
import { BASE_KINDS } from "../../src/protocol/caps.ts";
import { defineHostMode } from "./mode.ts";

const BASE: readonly string[] = BASE_KINDS;

export default defineHostMode({
  name: "U2-rewrite-unknown-kind",
  defect: "shows a frame of a kind not in the base vocabulary under the kind doc in its context block",
  expectFail: ["host:U2"],
  finding: { code: "host:U2.kind-rewritten", params: { kind: "hologram", instead: ["doc"] } },
  apply: (honest) => ({
    attributes(held) {
      return honest.attributes.call(this, held).map(([k, v]): [string, string] => (k === "kind" && !BASE.includes(v) ? [k, "doc"] : [k, v]));
    },
  }),
});
