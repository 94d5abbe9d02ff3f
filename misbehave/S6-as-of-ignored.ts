import { defineMode } from "./mode.ts";

/** Breaks as_of: "as_of pins retrieval to an instant." */
export default defineMode({
  name: "S6-as-of-ignored",
  defect: "ignores as_of and serves frames whatever their validity window",
  expectFail: [],
  expectWarn: ["S6-as-of"],
  // Ignoring as_of crosses either bound, as the day and timezone modes each cross one: the code is the pin.
  finding: "S6-as-of.outside-window",
  apply: (honest) => ({
    eligible({ as_of: _ignored, ...q }) {
      return honest.eligible.call(this, q);
    },
  }),
});
