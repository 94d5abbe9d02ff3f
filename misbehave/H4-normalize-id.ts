import { defineMode } from "./mode.ts";

/** Breaks H4: two ids that differ only in Unicode normalisation are two strings; echoing one normalised is not echoing it verbatim. */
export default defineMode({
  name: "H4-normalize-id",
  defect: "echoes request ids in Unicode normalisation form C",
  expectFail: ["H4"],
  finding: { code: "H4.id-altered", params: { id: "Q-A\u0308b/c 1✓", echoed: "Q-Äb/c 1✓" } },
  apply: () => ({
    serialize: (env) => JSON.stringify(typeof env.id === "string" ? { ...env, id: env.id.normalize("NFC") } : env),
  }),
});
