import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { isObj } from "../../src/protocol/envelope.ts";
import { SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/**
 * What an ack advertises: its capabilities.representations where it lists
 * any; where it lists none (absent, or an empty list), full alone, as
 * checks/P5.ts reads a provider's.
 */
function advertised(representations: unknown): string[] {
  const listed = Array.isArray(representations) ? representations.filter((r): r is string => typeof r === "string") : [];
  return listed.length > 0 ? listed : ["full"];
}

/** What the ack advertises: the representations, and whether it listed any (else full alone). */
type Offer = { advertised: string[]; listed: boolean };
const offerWords = (p: Offer): string => `${p.advertised.join(", ")}${p.listed ? "" : " (capabilities.representations is absent: full alone)"}`;
const queried = (lines: readonly number[]): string => `${count(lines.length, "query", "queries")}: ${lineWords(lines)}`;

const F = findings({
  unadvertised: {
    apart: ["foreign"],
    says: (p: Offer & { scenario: string; line: number; ack: number; foreign: Param[]; preferences: Param }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's query prefers ${p.foreign.map((f) => show(f, 40)).join(", ")}, which the provider's handshake_ack (line ${p.ack}) does not advertise (it advertises ${offerWords(p)}); prefer only what capabilities.representations lists`,
    expected: (p: Offer) => `representation_preferences within ${show(p.advertised)}`,
    actual: (p: { preferences: Param }) => show(p.preferences, 80),
  },
  "no-preferences": {
    ok: true,
    says: (p: { scenario: string; queries: number[] }) =>
      `scenario ${p.scenario}: no query the host sent states representation_preferences (${queried(p.queries)})`,
  },
  "advertised-only": {
    ok: true,
    says: (p: Offer & { scenario: string; queries: number[] }) =>
      `scenario ${p.scenario}: every representation the host's queries prefer is advertised (${offerWords(p)}) (${queried(p.queries)})`,
  },
});

/**
 * @anchor P5
 * Stimulus: the query.representation_preferences of every query the host
 * sent, in every scenario whose provider answered a handshake_ack
 * (lock-step, correlation, foreign-embeddings, representations-subset,
 * verify-declared, egress, egress-scopes, egress-scopes-consented, wrong-family, unknown-members,
 * unknown-vocabulary, error-internal, error-unknown-code, error-no-code, bearer-token,
 * crash-mid-query, stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered,
 * compose-rescored, three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges,
 * quoted-benign, quoted-hostile, budget-breaker, unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type), against that ack's
 * capabilities.representations. Most scenario providers advertise full and
 * compact; representations-subset advertises full alone.
 * Findings: a query preferring a representation the ack does not advertise
 * fails, naming the unadvertised ones; one finding per query.
 * Reading, where capabilities.representations is absent (or empty): full is
 * advertised. §6.4 makes full the representation a frame has when it says
 * none ("Absent means full, so a frame emitted before this field existed
 * round-trips unchanged"), so a provider that predates the field serves full
 * and nothing else; a host preferring full asks for nothing it cannot serve,
 * and this reading never fails an honest host. A query with no
 * representation_preferences (or an empty list) prefers nothing, and is
 * fine. Skip when the host sent no query anywhere.
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "P5",
  title: "The host prefers only representations the provider advertises",
  level: "MUST",
  requirement:
    "A host MUST NOT populate query.representation_preferences with a representation the provider did not advertise in capabilities.representations.",
  scenarios: SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, SCENARIOS)) {
      const ack = v.ack();
      if (!ack) continue;
      const queries = v.sent("query");
      if (queries.length === 0) continue;
      const declared = capabilities(ack.env).representations;
      const offered = advertised(declared);
      const offer: Offer = { advertised: offered, listed: Array.isArray(declared) && declared.length > 0 };
      let bad = 0;
      let preferring = 0;
      for (const { n, env } of queries) {
        const prefs = isObj(env.query) ? env.query.representation_preferences : undefined;
        // Not a list: the envelope's shape, host:S2-envelope's to judge.
        if (!Array.isArray(prefs) || prefs.length === 0) continue;
        preferring++;
        const foreign = [...new Set(prefs.filter((p) => typeof p !== "string" || !offered.includes(p)))];
        if (foreign.length === 0) continue;
        bad++;
        out.push(
          F.say(
            "unadvertised",
            { scenario: v.name, line: n, ack: ack.n, ...offer, foreign: foreign as Param[], preferences: prefs as Param },
            { lines: [n, ack.n] },
          ),
        );
      }
      if (bad === 0) {
        const lines = queries.map((q) => q.n);
        out.push(
          preferring === 0
            ? F.say("no-preferences", { scenario: v.name, queries: lines }, { lines: [...lines, ack.n] })
            : F.say("advertised-only", { scenario: v.name, queries: lines, ...offer }, { lines: [...lines, ack.n] }),
        );
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no query in any scenario with a handshake_ack" };
  },
});
