import { defineMode } from "./mode.ts";

/** Breaks Q1 on one path: a query pinned with as_of is served from the history path, which never applies kinds. */
export default defineMode({
  name: "Q1-as-of-bypasses-kinds",
  defect: "ignores kinds on a query pinned with as_of",
  expectFail: ["Q1"],
  finding: /kinds \["[^"]+"\] as_of \S+ \(line \d+\) returned \d+ frames? of another kind/,
  apply: (honest) => ({
    eligible(q) {
      return honest.eligible.call(this, q.as_of === undefined ? q : { ...q, kinds: [] });
    },
  }),
});
