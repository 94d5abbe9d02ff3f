import { ERROR_CODES } from "../src/protocol/errors.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { everySite } from "./kit/evidence.ts";
import { type ProbeView } from "../src/transcript/view.ts";
import { servedFrames, exchanges } from "./kit/answers.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { BASE_SCOPES, NAMESPACED } from "../src/protocol/scopes.ts";
import { FOREIGN_VERSION_PROBE, HANDSHAKE, MALFORMED_INPUT, SAMPLE_QUERY, UNKNOWN_TYPE } from "../src/protocol/probes.ts";
import { HOST_VERSION, VERSION_GRAMMAR } from "../src/math/version.ts";

/**
 * The version the provider acked, when it is a later minor of the host's
 * family: its vocabulary may hold codes this revision does not (X1: the
 * vocabulary grows "in a 1.x minor").
 */
function laterMinor(acked: unknown): string | undefined {
  const a = typeof acked === "string" ? VERSION_GRAMMAR.exec(acked) : null;
  const ours = VERSION_GRAMMAR.exec(HOST_VERSION)!;
  return a && a[1] === ours[1] && Number(a[2]) > Number(ours[2]) ? (acked as string) : undefined;
}

/** The open vocabularies judged, and the base values of those the spec enumerates. */
type Vocabulary = "egress_scope" | "error code" | "rel";
const BASES: { readonly [V in Vocabulary]?: readonly string[] } = { egress_scope: BASE_SCOPES, "error code": ERROR_CODES };

/** A name seen in a vocabulary: each distinct name is its own finding. */
type Name = { what: Vocabulary; value: Param };
const APART = ["what", "value"] as const;

const F = findings({
  "not-a-string": { apart: APART, says: (p: Name) => `${p.what} ${show(p.value)} is not a string` },
  namespaced: { ok: true, apart: APART, says: (p: Name) => `${p.what} ${show(p.value)} is namespaced` },
  "bad-namespace": {
    apart: APART,
    says: (p: Name) => `${p.what} ${show(p.value)} contains ":" but is not vendor:name with non-empty sides`,
    expected: () => "vendor:name",
    actual: (p: Name) => show(p.value),
  },
  "later-minor": {
    ok: true,
    apart: APART,
    says: (p: Name & { acked: string }) => `${p.what} ${show(p.value)} is not one ${HOST_VERSION} defines; the provider acked ${p.acked}, whose vocabulary may`,
  },
  unprefixed: {
    apart: APART,
    says: (p: Name) => `${p.what} ${show(p.value)} is neither a value this spec defines nor namespaced`,
    expected: (p: Name) => `one of ${BASES[p.what]!.join(", ")}, or vendor:name`,
    actual: (p: Name) => show(p.value),
  },
  protocol: { ok: true, apart: APART, says: (p: Name) => `${p.what} ${show(p.value)} is the protocol's` },
  "no-code": {
    cites: "Both are carried",
    level: "NONE",
    says: () => `an error carries no code (§10: "code is for the machine; message is for whoever reads the log. Both are carried")`,
  },
});

/** A vendor name is namespaced (vendor:name, non-empty sides); an unprefixed one must be the protocol's. */
function judge(what: Vocabulary, value: unknown, lines: number[], grown?: string, pointer?: string): Evidence {
  // The schema's pattern for the member is the same rule: where this judges it (in the ack every session carries), the
  // one finding is this one.
  const at = { lines, ...(pointer !== undefined ? { judges: [everySite(pointer)] } : {}) };
  const p: Name = { what, value: value as Param };
  if (typeof value !== "string") return F.say("not-a-string", p, at);
  if (value.includes(":")) return F.say(NAMESPACED.test(value) ? "namespaced" : "bad-namespace", p, at);
  const base = BASES[what];
  if (base && !base.includes(value) && grown) return F.say("later-minor", { ...p, acked: grown }, at);
  if (base && !base.includes(value)) return F.say("unprefixed", p, at);
  return F.say("protocol", p, at);
}

/** Every error envelope received in these probes. */
function errors(views: ProbeView[]) {
  return views.flatMap((v) => v.received().filter((m) => m.env.type === "error"));
}

/**
 * @anchor U3
 * Stimulus: the ack's egress_scopes (probe handshake); every error reply
 * (probes malformed-input, unknown-type, foreign-version); every relation rel
 * served (probe sample-query). The rel vocabulary is open and §8.1 also shows
 * dotted provider namespaces (myindex.owns), so only a rel containing ":" is
 * held to the vendor:name form.
 * Readings: vendor:name is "a : with non-empty sides" (§4.1), which does not
 * say which colon splits vendor from name; the reading that never fails an
 * honest provider is that any does, so acme:eu:west and acme:code:calls-into
 * are namespaced, while acme: and :calls are not. An unprefixed error code
 * or egress_scope this revision does not define, from a provider that acked a
 * later 1.x minor (contextgraph/1.3), may be that minor's vocabulary (X1: the
 * vocabulary grows "in a 1.x minor"; U3: "a base value this spec defines or
 * later reserves"): a pass, saying so. A missing code breaks "Both are
 * carried" (§10), which has no keyword: a warning.
 */
export default defineCheck({
  findings: F.table,
  id: "U3",
  title: "Vendor names in open vocabularies are namespaced",
  level: "MUST",
  requirement:
    "Names containing a : are reserved for namespacing: a vendor-specific rel, egress_scope, or error code MUST be namespaced (vendor:name, non-empty on both sides) so it can never collide with a base value this spec defines or later reserves. Unprefixed names in these vocabularies belong to the protocol.",
  probes: [HANDSHAKE, SAMPLE_QUERY, MALFORMED_INPUT, UNKNOWN_TYPE, FOREIGN_VERSION_PROBE],
  score({ probe }) {
    const out: Evidence[] = [];
    const ack = probe(HANDSHAKE).ack()!;
    const grown = laterMinor(ack.env.protocol_version);
    const flow = isObj(ack.env.provider) && isObj(ack.env.provider.data_flow) ? ack.env.provider.data_flow : {};
    // A later 1.x minor may define scopes this revision does not, as it may error codes ("or later reserves").
    if (Array.isArray(flow.egress_scopes))
      flow.egress_scopes.forEach((s, i) => out.push(judge("egress_scope", s, [ack.n], grown, `/provider/data_flow/egress_scopes/${i}`)));
    for (const m of errors([MALFORMED_INPUT, UNKNOWN_TYPE, FOREIGN_VERSION_PROBE].map(probe))) {
      if (m.env.code === undefined) {
        out.push(F.say("no-code", {}, { lines: [m.n] }));
      } else {
        out.push(judge("error code", m.env.code, [m.n], grown));
      }
    }
    for (const f of servedFrames(exchanges([probe(SAMPLE_QUERY)]))) {
      const rels = Array.isArray(f.frame.relations) ? f.frame.relations.filter(isObj) : [];
      for (const r of rels) out.push(judge("rel", r.rel, [f.line]));
    }
    if (out.length === 0) return { skip: "no egress_scope, error code or relation was seen" };
    return out;
  },
});
