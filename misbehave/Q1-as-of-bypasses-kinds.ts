import { defineMode } from "./mode.ts";

/** Breaks Q1 on one path: a query pinned with as_of is served from the history path, which never applies kinds. */
export default defineMode({
  name: "Q1-as-of-bypasses-kinds",
  defect: "ignores kinds on a query pinned with as_of",
  expectFail: ["Q1"],
  finding: { code: "Q1.other-kind", params: { narrowing: "as-of" } },
  apply: (honest) => ({
    eligible(q) {
      return honest.eligible.call(this, q.as_of === undefined ? q : { ...q, kinds: [] });
    },
  }),
});
