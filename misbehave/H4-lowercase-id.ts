import { defineMode } from "./mode.ts";

/** Breaks H4: an id is opaque; echoing it case-folded is not echoing it verbatim. */
export default defineMode({
  name: "H4-lowercase-id",
  defect: "echoes request ids lowercased",
  expectFail: ["H4"],
  finding: { code: "H4.id-altered", params: { id: "Q-Äb/c 1✓", echoed: "q-äb/c 1✓" } },
  apply: () => ({
    serialize: (env) => JSON.stringify(typeof env.id === "string" ? { ...env, id: env.id.toLowerCase() } : env),
  }),
});
