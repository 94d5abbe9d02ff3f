import { defineMode } from "./mode.ts";

/** Breaks as_of: "as_of pins retrieval to an instant." */
export default defineMode({
  name: "S6-as-of-ignored",
  defect: "ignores as_of and serves frames whatever their validity window",
  expectFail: [],
  expectWarn: ["S6-as-of"],
  finding: /pinned at as_of \S+, the provider returned frame .*, whose valid_(from \S+ is after|to \S+ is before) it/,
  apply: (honest) => ({
    eligible({ as_of: _ignored, ...q }) {
      return honest.eligible.call(this, q);
    },
  }),
});
