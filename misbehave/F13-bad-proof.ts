import { defineMode } from "./mode.ts";

/** Breaks F13: an inclusion proof "when present MUST recompute the result_attestation root". */
export default defineMode({
  name: "F13-bad-proof",
  defect: "changes one hex digit of the first sibling of every inclusion proof",
  expectFail: ["F13"],
  finding: "F13.wrong-root",
  apply: (honest) => ({
    inclusion(frames, index) {
      const p = honest.inclusion.call(this, frames, index);
      if (!p || p.path.length === 0) return p;
      const s = p.path[0]!.sibling;
      return { ...p, path: [{ ...p.path[0]!, sibling: s.slice(0, -1) + (s.endsWith("0") ? "1" : "0") }, ...p.path.slice(1)] };
    },
  }),
});
