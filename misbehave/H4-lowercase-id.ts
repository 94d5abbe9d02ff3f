import { defineMode } from "./mode.ts";

/** Breaks H4: an id is opaque; echoing it case-folded is not echoing it verbatim. */
export default defineMode({
  name: "H4-lowercase-id",
  defect: "echoes request ids lowercased",
  expectFail: ["H4"],
  finding: /request "Q-Äb\/c 1✓" \(line \d+\) carries id "q-äb\/c 1✓", not the same string/,
  apply: () => ({
    serialize: (env) => JSON.stringify(typeof env.id === "string" ? { ...env, id: env.id.toLowerCase() } : env),
  }),
});
