import { DOCS } from "../src/reference/corpus.ts";
import { defineMode } from "./mode.ts";

/**
 * Breaks as_of at the edge: compares instants by calendar day, so a frame
 * stays eligible for the rest of the day its valid_to ends. An instant a day
 * outside a window never shows it; a second after valid_to does.
 */
export default defineMode({
  name: "S6-as-of-day-granularity",
  defect: "applies as_of by calendar day, serving a frame for the rest of the day its validity ends",
  expectFail: [],
  expectWarn: ["S6-as-of"],
  finding: { code: "S6-as-of.outside-window", params: { bounds: ["valid_to"] } },
  apply: (honest) => ({
    eligible(q) {
      if (q.as_of === undefined) return honest.eligible.call(this, q);
      const day = q.as_of.slice(0, 10);
      return DOCS.filter((d) => q.kinds.length === 0 || q.kinds.includes(d.kind)).filter(
        (d) => (!d.valid_from || d.valid_from.slice(0, 10) <= day) && (!d.valid_to || day <= d.valid_to.slice(0, 10)),
      );
    },
  }),
});
