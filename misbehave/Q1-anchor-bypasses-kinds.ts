import type { Obj } from "../src/protocol/envelope.ts";
import { DOCS } from "../src/reference/corpus.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks Q1 on one path: a frame reached by an anchor is served whatever
 * kinds says (the anchor path never meets the filter). Only a query that
 * narrows kinds and anchors on a frame of another kind shows it.
 */
export default defineMode({
  name: "Q1-anchor-bypasses-kinds",
  defect: "serves anchored frames whatever the kinds filter says",
  expectFail: ["Q1"],
  finding: { code: "Q1.other-kind", params: { narrowing: "anchor" } },
  apply: (honest) => ({
    eligible(q) {
      const filtered = honest.eligible.call(this, q);
      const reached = DOCS.filter((d) => {
        const f = this.frame(d);
        const targets = ((f.relations as Obj[] | undefined) ?? []).map((r) => r.target_uri);
        return q.anchors.some((a) => a === f.uri || targets.includes(a));
      });
      return [...filtered, ...reached.filter((d) => !filtered.includes(d))];
    },
  }),
});
