import { defineMode } from "./mode.ts";

/** Breaks Q1 for lists: applies the kinds filter only when it names exactly one kind. */
export default defineMode({
  name: "Q1-single-kind-only",
  defect: "applies kinds only when it names a single kind; a list of several is served as any kind",
  expectFail: ["Q1"],
  finding: { code: "Q1.other-kind", params: { narrowing: "kinds" } },
  apply: (honest) => ({
    eligible(q) {
      return honest.eligible.call(this, q.kinds.length > 1 ? { ...q, kinds: [] } : q);
    },
  }),
});
