import { defineMode } from "./mode.ts";

/** Breaks the frames envelope's shape: result.truncated is a boolean. */
export default defineMode({
  name: "S2-envelope-truncated-string",
  defect: 'sends result.truncated as the string "no"',
  expectFail: ["S2-envelope"],
  finding: { code: "S2-envelope.schema", params: { pointer: "/result/truncated", keyword: "type" } },
  apply: (honest) => ({
    onQuery(env) {
      return honest.onQuery.call(this, env).map((r) => (r.type === "frames" ? { ...r, result: { ...(r.result as object), truncated: "no" } } : r));
    },
  }),
});
