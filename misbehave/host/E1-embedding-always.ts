/**
 * Defect: sends query.embedding on every query, whatever fingerprint the provider declares.
 * Breaks E1: "A host MUST NOT populate query.embedding unless its own embedding fingerprint is exactly equal to the
 * provider's declared capabilities.embeddings_fingerprint." (The reference host has no embedding model at all.)
 */
import { isObj } from "../../src/protocol/envelope.ts";
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "E1-embedding-always",
  defect: "sends query.embedding [0.1, 0.2, 0.3] on every query, though it has no embedding model whose fingerprint could match",
  expectFail: ["host:E1"],
  finding: { code: "host:E1.unshared-embedding", params: { embedding: { vector: 3 } } },
  apply: (honest) => ({
    query(ack, n) {
      const q = honest.query.call(this, ack, n);
      return { ...q, query: { ...(isObj(q.query) ? q.query : {}), embedding: [0.1, 0.2, 0.3] } };
    },
  }),
});
