import { at, ENVELOPE_TYPES } from "../kit/schema.ts";
import type { Evidence } from "../kit/check.ts";
import { findings, type Param } from "../kit/findings.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";
import { validateEnvelope, type SchemaError } from "../../src/schema/index.ts";

/**
 * Violations another host check judges with its own words: a handshake's
 * protocol_version (host:S3-version), a representation_preferences entry
 * outside the vocabulary (never advertised, so host:P5's).
 */
function judgedElsewhere(type: string, e: SchemaError): boolean {
  if (type === "handshake" && e.instancePath === "/protocol_version") return true;
  return type === "query" && /^\/query\/representation_preferences\/\d+$/.test(e.instancePath);
}

type Invalid = { scenario: string; line: number; type: string; pointer: string; error: string; keyword: string; schema_path: string; value?: Param };

const F = findings({
  "invalid-envelope": {
    apart: ["type", "schema_path", "error"],
    says: (p: Invalid) =>
      `scenario ${p.scenario}, line ${p.line}: the host's ${p.type} envelope: ${p.pointer === "" ? "(the envelope)" : p.pointer} ${p.error} [schema ${p.schema_path}]`,
    actual: (p: Invalid) => (p.keyword === "required" ? undefined : show(p.value, 80)),
  },
  valid: {
    ok: true,
    says: (p: { scenario: string; types: string[]; lines: number[] }) =>
      `scenario ${p.scenario}: every envelope the host sent validates against the envelope schema (interop mode) (${count(p.lines.length, "envelope")}, ${p.types.join(", ")}: ${lineWords(p.lines)})`,
  },
});

/**
 * @section 2 (no anchor number)
 * Stimulus: every envelope the host sent in every scenario (lock-step,
 * correlation, foreign-embeddings, representations-subset, verify-declared,
 * egress, egress-scopes, egress-scopes-consented, wrong-family, unknown-members, unknown-vocabulary,
 * error-internal, error-unknown-code, error-no-code, bearer-token, crash-mid-query,
 * stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type), validated against schema/contextgraph-envelope.schema.json
 * in interop mode (U1: unknown members ignored). A violation fails, as a
 * provider's does under S2-envelope. An envelope of a type outside the
 * vocabulary is not validated: a receiver must not reject one (§2), so a
 * host speaking a later 1.x minor may send it. A handshake's protocol_version
 * is host:S3-version's, and a representation_preferences entry outside the
 * vocabulary host:P5's: neither is reported twice.
 */
export default defineHostCheck({
  findings: F.table,
  id: "host:S2-envelope",
  anchor: "S2-envelope",
  follows: "host:S2-framing",
  title: "Every envelope the host sends has the shape the schema gives its type",
  level: "MUST",
  basis: "the schema's members, types and enums",
  requirement:
    "Every message is a single JSON object — an envelope — tagged by a type member. Envelope vocabulary: handshake, handshake_ack, query, frames, verify, verified, shutdown, error.",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      const sent = v.sent().filter((e) => ENVELOPE_TYPES.includes(e.env.type as string));
      if (sent.length === 0) continue;
      let bad = 0;
      for (const { n, env } of sent) {
        const type = env.type as string;
        const errors = validateEnvelope(env, "interop").filter((e) => !judgedElsewhere(type, e));
        if (errors.length > 0) bad++;
        for (const e of errors) {
          const value = e.keyword === "required" ? undefined : (at(env, e.instancePath) as Param | undefined);
          out.push(
            F.say(
              "invalid-envelope",
              {
                scenario: v.name,
                line: n,
                type,
                pointer: e.instancePath,
                error: e.message,
                keyword: e.keyword,
                schema_path: e.schemaPath,
                ...(value === undefined ? {} : { value }),
              },
              { lines: [n] },
            ),
          );
        }
      }
      if (bad === 0) {
        const types = [...new Set(sent.map((e) => e.env.type as string))];
        out.push(F.say("valid", { scenario: v.name, types, lines: sent.map((e) => e.n) }, { lines: sent.map((e) => e.n) }));
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no envelope of a type this revision defines" };
  },
});
