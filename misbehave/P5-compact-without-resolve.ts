import { defineMode } from "./mode.ts";

/** Breaks §6.4: "A provider advertising compact or reference MUST set resolve: true". */
export default defineMode({
  name: "P5-compact-without-resolve",
  defect: "advertises the compact representation with resolve: false",
  expectFail: ["P5"],
  finding: { code: "P5.no-resolve", params: { representations: ["compact"] } },
  apply: (honest) => ({
    ack() {
      const ack = honest.ack.call(this);
      return { ...ack, capabilities: { ...(ack.capabilities as object), resolve: false } };
    },
  }),
});
