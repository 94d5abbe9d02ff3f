import { defineMode } from "./mode.ts";

/**
 * Breaks H4 on one reply type: a bad_request error goes out without the
 * request's id (the error path builds its envelope apart from the answer
 * path). Frames and other errors echo it; only a correlated request that
 * ends in bad_request shows it.
 */
export default defineMode({
  name: "H4-drop-id-on-bad-request",
  defect: "drops the request's id from bad_request errors",
  expectFail: ["H4"],
  finding: { code: "H4.id-dropped", params: { reply: "error", code: "bad_request", request: "query" } },
  apply: (honest) => ({
    serialize(env) {
      if (env.type !== "error" || env.code !== "bad_request") return honest.serialize.call(this, env);
      const { id: _dropped, ...rest } = env;
      return honest.serialize.call(this, rest);
    },
  }),
});
