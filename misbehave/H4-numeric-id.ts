import { defineMode } from "./mode.ts";

/**
 * Breaks H4: an id is an opaque string; one made only of digits echoed as a
 * JSON number is not echoed verbatim. The number is no id of the schema's
 * wire shape either (CorrelationId is a string), which S2-envelope holds.
 */
export default defineMode({
  name: "H4-numeric-id",
  defect: "echoes an id made only of digits as a JSON number",
  expectFail: ["H4", "S2-envelope"],
  finding: {
    H4: { code: "H4.id-altered", params: { id: "20261203", echoed: 20261203 } },
    "S2-envelope": { code: "S2-envelope.schema", params: { pointer: "/id", keyword: "type" } },
  },
  apply: () => ({
    serialize: (env) => JSON.stringify(typeof env.id === "string" && /^\d+$/.test(env.id) ? { ...env, id: Number(env.id) } : env),
  }),
});
