import { defineCheck } from "./kit/check.ts";
import { findings } from "./kit/findings.ts";
import { perRelation, related, type RelationAt } from "./kit/relations.ts";
import { show } from "./kit/show.ts";
import { parseUri } from "../src/math/uri.ts";
import { BUDGET_SQUEEZE, SAMPLE_QUERY } from "../src/protocol/probes.ts";

/** The parser's reason names the part of the URI that broke (its part), and what to write instead where one fix is plain. */
type NotUri = { at: RelationAt; target: string; part: string; problem: string; fix: string | null };

const F = findings({
  uri: { ok: true, says: () => "every relation target_uri is a URI" },
  "not-a-uri": {
    apart: ["part"],
    says: (p: NotUri) => `${related(p.at)} has target_uri ${show(p.target)}, which is not a URI: ${p.problem}`,
    expected: (p: NotUri) => (p.fix ? `a URI (RFC 3986): ${p.fix}` : "an absolute URI (RFC 3986), e.g. file:///repo/src/net.rs#retry"),
    actual: (p: NotUri) => show(p.target),
  },
});

/**
 * @anchor G2
 * Stimulus: every relation of every frame served to probes sample-query and budget-squeeze.
 * A URI is RFC 3986's (src/math/uri.ts): a scheme, then the rest, each part
 * in its own grammar. A relative reference is not one, nor is an IRI with
 * characters outside ASCII (they must be percent-encoded); `x:` (path-empty)
 * is. symbol://std::collections::HashMap is not: after "//" comes an
 * authority, whose host ends at the first colon and whose port is digits.
 * A target_uri that is absent, not a string, or empty breaks the envelope
 * schema (Relation.target_uri is a NonEmptyString), which hands that
 * violation to G2 in every probe's frames: one finding, so the grammar here
 * judges only non-empty strings.
 */
export default defineCheck({
  findings: F.table,
  id: "G2",
  title: "Every relation's target_uri is a URI",
  level: "MUST",
  requirement: "target_uri MUST be a non-empty URI.",
  probes: [SAMPLE_QUERY, BUDGET_SQUEEZE],
  score({ probe }) {
    return perRelation([probe(SAMPLE_QUERY), probe(BUDGET_SQUEEZE)], (rel, at, line) => {
      const uri = rel.target_uri;
      if (typeof uri !== "string" || uri === "") return undefined;
      const r = parseUri(uri);
      if (r.ok) return F.say("uri", {}, { lines: [line] });
      return F.say("not-a-uri", { at, target: uri, part: r.part, problem: r.problem, fix: r.fix ?? null }, { lines: [line] });
    });
  },
});
