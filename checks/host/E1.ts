import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { FOREIGN_EMBEDDINGS, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/** A populated embedding: present, not null, and not an empty array (an empty vector carries nothing to compare). */
function populated(embedding: unknown): boolean {
  return embedding !== undefined && embedding !== null && !(Array.isArray(embedding) && embedding.length === 0);
}

/** A populated embedding as seen: the length of a vector, or the value that is none. */
type Seen = { vector: number } | { value: Param };
const seen = (embedding: unknown): Seen => (Array.isArray(embedding) ? { vector: embedding.length } : { value: embedding as Param });
const size = (e: Seen): string => ("vector" in e ? `a vector of ${e.vector}` : `a ${typeof e.value} ${show(e.value, 40)}`);

/** The ack's embeddings_fingerprint: null where it declares none. */
type Fingerprint = { fingerprint: Param };
const why = (p: Fingerprint): string =>
  p.fingerprint !== null
    ? `declares embeddings_fingerprint ${show(p.fingerprint, 80)}, made for this run, which no host can have`
    : "declares no embeddings_fingerprint";

const F = findings({
  "unshared-embedding": {
    apart: ["declared"],
    says: (p: Fingerprint & { scenario: string; line: number; ack: number; declared: boolean; embedding: Seen }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's query carries ${size(p.embedding)} in query.embedding, but the provider's handshake_ack (line ${p.ack}) ${why(p)}; send no embedding unless your own fingerprint equals the declared one exactly`,
    expected: (p: Fingerprint) => `no query.embedding (declared fingerprint: ${p.fingerprint !== null ? show(p.fingerprint, 80) : "none"})`,
    actual: (p: { embedding: Seen }) => size(p.embedding),
  },
  "no-embedding": {
    ok: true,
    says: (p: Fingerprint & { scenario: string; queries: number[] }) =>
      `scenario ${p.scenario}: no query the host sent carries an embedding (${count(p.queries.length, "query", "queries")}: ${lineWords(p.queries)}); the provider ${why(p)}`,
  },
});

/**
 * @anchor E1
 * Stimulus: every query the host sent, in every scenario whose provider
 * answered a handshake_ack (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type).
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
  findings: F.table,
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
      const fingerprint = (declared ? fp : null) as Param;
      let bad = 0;
      for (const { n, env } of queries) {
        const embedding = isObj(env.query) ? env.query.embedding : undefined;
        if (!populated(embedding)) continue;
        bad++;
        out.push(
          F.say("unshared-embedding", { scenario: v.name, line: n, ack: ack.n, declared, fingerprint, embedding: seen(embedding) }, { lines: [n, ack.n] }),
        );
      }
      if (bad === 0) {
        const lines = queries.map((q) => q.n);
        out.push(F.say("no-embedding", { scenario: v.name, queries: lines, fingerprint }, { lines: [...lines, ack.n] }));
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
