import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { family, isVersionString } from "../../src/math/version.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";

type At = { scenario: string; line: number };

const F = findings({
  named: {
    ok: true,
    says: (p: At & { version: string }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's handshake names ${show(p.version)} (family ${family(p.version)})`,
  },
  "off-grammar": {
    says: (p: At & { version?: Param }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's handshake protocol_version ${show(p.version, 60)} does not follow the version grammar contextgraph/<major>.<minor>[-draft], so no family can be read from it`,
    expected: () => 'e.g. "contextgraph/1.0"',
    actual: (p: { version?: Param }) => show(p.version, 60),
  },
});

/**
 * @section 3.1 (no anchor number)
 * Stimulus: the protocol_version of every handshake the host sent, in every
 * scenario (lock-step, correlation, foreign-embeddings,
 * representations-subset, verify-declared, egress, egress-scopes, egress-scopes-consented,
 * wrong-family, unknown-members, unknown-vocabulary, error-internal,
 * error-unknown-code, error-no-code, bearer-token, crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type). The
 * version grammar is normative wire shape ("the version rule, and the
 * counting and format grammars are normative"), so a version outside it
 * fails, as checks/H1.ts holds a provider's handshake_ack to it: without it
 * no family can be compared (H1, H3). Which family the host speaks is not
 * judged here. Skip when the host sent no handshake anywhere.
 */
export default defineHostCheck({
  findings: F.table,
  id: "host:S3-version",
  anchor: "S3-version",
  follows: "host:S2-envelope",
  title: "The host's handshake names a version in the version grammar",
  level: "MUST",
  basis: "the version rule",
  requirement:
    'version-string = "contextgraph/" major "." minor [ "-draft" ]; major = 1*DIGIT; minor = 1*DIGIT. ' +
    'The major family is the substring up to (not including) the first ".". Two versions interoperate if and only if they share a major family.',
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      for (const { n, env } of v.sent("handshake")) {
        const version = env.protocol_version;
        out.push(
          isVersionString(version)
            ? F.say("named", { scenario: v.name, line: n, version }, { lines: [n] })
            : F.say("off-grammar", { scenario: v.name, line: n, ...(version === undefined ? {} : { version: version as Param }) }, { lines: [n] }),
        );
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no handshake in any scenario" };
  },
});
