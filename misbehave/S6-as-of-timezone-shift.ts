import { defineMode } from "./mode.ts";

/**
 * Breaks as_of at valid_from: reads the instant as local time an hour
 * behind UTC (the Z dropped), so as_of lands an hour late and a frame is
 * served from an hour before its valid_from. A pin a day outside never shows
 * it; a second before valid_from does.
 */
export default defineMode({
  name: "S6-as-of-timezone-shift",
  defect: "reads as_of as local time one hour behind UTC, serving frames up to an hour before their valid_from",
  expectFail: [],
  expectWarn: ["S6-as-of"],
  finding: { code: "S6-as-of.outside-window", params: { bounds: ["valid_from"] } },
  apply: (honest) => ({
    eligible(q) {
      if (q.as_of === undefined) return honest.eligible.call(this, q);
      const late = new Date(Date.parse(q.as_of) + 3_600_000).toISOString();
      return honest.eligible.call(this, { ...q, as_of: late });
    },
  }),
});
