import { defineMode } from "./mode.ts";

/** Breaks §2: "a receiver MUST NOT reject an envelope solely because its type is one it does not implement". */
export default defineMode({
  name: "S2-crash-on-unknown-type",
  defect: "throws (and so exits) on an envelope type it does not implement",
  expectFail: ["S2-framing"],
  finding: { code: "S2-framing.rejected-type", params: { outcome: { kind: "exit" } } },
  stdioOnly: "a crash would take down the HTTP server every session shares",
  apply: () => ({
    onUnknown(env) {
      throw new Error(`unknown envelope type ${JSON.stringify(env.type)}`);
    },
  }),
});
