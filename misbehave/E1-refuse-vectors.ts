import { error } from "../src/reference/provider.ts";
import { defineMode } from "./mode.ts";

/**
 * Falls short of E1: declares an embedding space, then refuses every vector
 * in it. No keyword binds a provider to serve one, so the check warns.
 */
export default defineMode({
  name: "E1-refuse-vectors",
  defect: "refuses every query that carries an embedding, even of the declared dimension",
  expectFail: [],
  expectWarn: ["E1"],
  finding: "E1.refused",
  apply: (honest) => ({
    refuse(q, env) {
      return q.embedding ? error(env, "bad_request", "embeddings are not accepted") : honest.refuse.call(this, q, env);
    },
  }),
});
