/**
 * Defect: composes its frames in canonical order without de-duplicating identical identities, so a frame it reuses
 * and fetches again renders twice.
 * Breaks context-reuse §1's "SHOULD de-duplicate identical identities to a single rendered block", the shortfall a
 * run can see of D2 ("Two frames with the same (provider id, frame id, content_digest) MUST be treated as the same
 * content"): it warns.
 */
import { compareIdentity } from "../../src/math/attest.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "D2-render-twice",
  defect: "renders a frame's stored copy and its fresh copy, one identity, one after the other",
  expectFail: [],
  expectWarn: ["host:D2"],
  finding: { code: "host:D2.rendered-twice", params: { frame: { marker: "cgpmark-re-01" }, times: 2 } },
  apply: () => ({
    order(held) {
      return [...held].sort((a, b) => compareIdentity(this.frameId(a), this.frameId(b)));
    },
  }),
});
