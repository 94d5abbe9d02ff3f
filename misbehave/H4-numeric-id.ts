import { defineMode } from "./mode.ts";

/** Breaks H4: an id is an opaque string; one made only of digits echoed as a JSON number is not echoed verbatim. */
export default defineMode({
  name: "H4-numeric-id",
  defect: "echoes an id made only of digits as a JSON number",
  expectFail: ["H4"],
  finding: { code: "H4.id-altered", params: { id: "20261203", echoed: 20261203 } },
  apply: () => ({
    serialize: (env) => JSON.stringify(typeof env.id === "string" && /^\d+$/.test(env.id) ? { ...env, id: Number(env.id) } : env),
  }),
});
