import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { FOREIGN_EMBEDDINGS, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/** A populated embedding: present, not null, and not an empty array (an empty vector carries nothing to compare). */
function populated(embedding: unknown): boolean {
  return embedding !== undefined && embedding !== null && !(Array.isArray(embedding) && embedding.length === 0);
}

const size = (embedding: unknown): string => (Array.isArray(embedding) ? `a vector of ${embedding.length}` : `a ${typeof embedding} ${show(embedding, 40)}`);

/**
 * @anchor E1
 * Stimulus: every query the host sent, in every scenario whose provider
 * answered a handshake_ack (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation).
 * Findings: a populated query.embedding sent to a provider whose ack declares
 * no embeddings_fingerprint fails: no fingerprint of the host's can equal an
 * absent one. In foreign-embeddings the ack declares a fingerprint made for
 * this run, which no host can have, so any populated embedding there fails.
 * Where some other ack declares a fingerprint the host could share, nothing
 * is judged (the host's own fingerprint cannot be seen). A query sent before
 * the ack is judged against that ack all the same: the host could not have
 * known the fingerprint equal.
 * Reading: an embedding that is null, or an empty array, is not populated
 * (a serializer writing an absent optional field; a vector of no dimensions
 * means nothing to any index). Skip when the host sent no query anywhere.
 */
export default defineHostCheck({
  anchor: "E1",
  title: "The host sends no embedding to a provider whose fingerprint it cannot share",
  level: "MUST",
  requirement:
    "A host MUST NOT populate query.embedding unless its own embedding fingerprint is exactly equal to the provider's declared capabilities.embeddings_fingerprint.",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    let anyQuery = false;
    for (const v of ranViews(input, SCENARIOS)) {
      const ack = v.ack();
      if (!ack) continue;
      const queries = v.sent("query");
      if (queries.length === 0) continue;
      anyQuery = true;
      const fp = capabilities(ack.env).embeddings_fingerprint;
      const declared = fp !== undefined && fp !== null;
      const foreign = v.spec === FOREIGN_EMBEDDINGS;
      if (declared && !foreign) continue;
      const why = declared
        ? `declares embeddings_fingerprint ${show(fp, 80)}, made for this run, which no host can have`
        : "declares no embeddings_fingerprint";
      let bad = 0;
      for (const { n, env } of queries) {
        const embedding = isObj(env.query) ? env.query.embedding : undefined;
        if (!populated(embedding)) continue;
        bad++;
        out.push({
          ok: false,
          message: `scenario ${v.name}, line ${n}: the host's query carries ${size(embedding)} in query.embedding, but the provider's handshake_ack (line ${ack.n}) ${why}; send no embedding unless your own fingerprint equals the declared one exactly`,
          expected: `no query.embedding (declared fingerprint: ${declared ? show(fp, 80) : "none"})`,
          actual: size(embedding),
          lines: [n, ack.n],
        });
      }
      if (bad === 0) {
        const lines = queries.map((q) => q.n);
        out.push({
          ok: true,
          message: `scenario ${v.name}: no query the host sent carries an embedding (${count(queries.length, "query", "queries")}: ${lineWords(lines)}); the provider ${why}`,
          lines: [...lines, ack.n],
        });
      }
    }
    if (out.length > 0) return out;
    return {
      skip: anyQuery
        ? "every query went to a provider declaring a fingerprint the host might share"
        : "the host sent no query in any scenario with a handshake_ack",
    };
  },
});
