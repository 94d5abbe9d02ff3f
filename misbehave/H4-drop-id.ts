import { defineMode } from "./mode.ts";

/** Breaks H4: "MUST echo a request's id verbatim on the corresponding frames or error." */
export default defineMode({
  name: "H4-drop-id",
  defect: "declares correlation but sends every reply without its id",
  expectFail: ["H4"],
  finding: { code: "H4.id-dropped", params: { reply: "frames" } },
  apply: () => ({
    serialize({ id: _dropped, ...env }) {
      return JSON.stringify(env);
    },
  }),
});
