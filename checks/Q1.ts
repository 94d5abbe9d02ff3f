import { counted } from "../src/verdict/words.ts";
import { discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { KINDS_QUERY, UNKNOWN_KIND_PROBE } from "../src/protocol/probes.ts";
import { type Message, type ProbeView } from "../src/transcript/view.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { common } from "./kit/common-findings.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";

const kindsOf = (m: Message): string[] => {
  const k = (m.env.query as { kinds?: unknown } | undefined)?.kinds;
  return Array.isArray(k) ? k.filter((x): x is string => typeof x === "string") : [];
};

/**
 * A narrowed query, as a finding's params: its kinds, the first anchor and
 * the as_of it carried, and what narrowed it besides one kind (several kinds,
 * an anchor, as_of). Each is its own stimulus: its findings are shown apart.
 */
type Narrowed = { kinds: string[]; anchor: Param; as_of: string | null; narrowing: "kind" | "kinds" | "anchor" | "as-of"; line: number };
const APART = ["kinds", "anchor", "as_of"] as const;

function narrowedBy(m: Message): Narrowed {
  const a = (m.env.query as { anchors?: unknown; as_of?: unknown } | undefined) ?? {};
  const kinds = kindsOf(m);
  const anchor = Array.isArray(a.anchors) && a.anchors.length > 0 ? (a.anchors[0] as Param) : null;
  const asOf = typeof a.as_of === "string" ? a.as_of : null;
  const narrowing = anchor !== null ? "anchor" : asOf !== null ? "as-of" : kinds.length > 1 ? "kinds" : "kind";
  return { kinds, anchor, as_of: asOf, narrowing, line: m.n };
}

function anchorsOf(p: Narrowed): string {
  return [p.anchor !== null ? ` anchored on ${show(p.anchor, 60)}` : "", p.as_of !== null ? ` as_of ${p.as_of}` : ""].join("");
}

const what = (p: Narrowed): string => `kinds ${show(p.kinds)}${anchorsOf(p)} (line ${p.line})`;

type Served = Narrowed & { outside: { id: Param; kind: Param }[]; outside_count: number; served: Param[] };

const F = findings({
  "unsupported-kind": { ok: true, apart: APART, says: (p: Narrowed) => `${what(p)} answered with unsupported_kind` },
  /** Q1 states the outcome ("returns zero frames, or replies unsupported_kind") with no keyword: a warning, never a failure. */
  "other-error": {
    cites: "A provider serving none of the requested kinds returns zero frames, or replies unsupported_kind",
    level: "NONE",
    apart: APART,
    says: (p: Narrowed & { code: Param }) =>
      `${what(p)} answered with error ${show(p.code)}; Q1 states the outcome as zero frames, or unsupported_kind (no keyword: a warning)`,
    expected: () => "frames of the requested kinds, or error unsupported_kind",
    actual: (p: { code: Param }) => `error ${show(p.code)}`,
  },
  "requested-kinds": {
    ok: true,
    apart: APART,
    says: (p: Narrowed & { frames: number }) => `${what(p)}: ${counted(p.frames, "frame")}, all of the requested kinds`,
  },
  "other-kind": {
    apart: APART,
    says: (p: Served) =>
      `${what(p)} returned ${p.outside_count} frame${p.outside_count > 1 ? "s" : ""} of another kind: ${p.outside.map((f) => `${show(f.id)} (${show(f.kind)})`).join(", ")}`,
    expected: (p: Served) => `only frames of kind ${p.kinds.map((k) => show(k)).join(" or ")}`,
    actual: (p: Served) => `kinds ${show(p.served)}`,
  },
  "no-answer": {
    untestable: true,
    apart: APART,
    says: (p: Narrowed & { why: string }) => `query for kinds ${show(p.kinds)}${anchorsOf(p)} (line ${p.line}) got no answer: ${p.why}`,
  },
  "unknown-kind-unanswered": {
    cites: "A provider serving none of the requested kinds returns zero frames, or replies unsupported_kind",
    level: "NONE",
    apart: APART,
    says: (p: Narrowed & { why: string }) =>
      `kinds ${show(p.kinds)} (line ${p.line}) got no answer (${p.why}), though the provider answered the next query; Q1 states the outcome as zero frames, or unsupported_kind (no keyword: a warning)`,
  },
});

function judge(sent: Message, reply: Message): Evidence {
  const q = narrowedBy(sent);
  const at = { lines: [sent.n, reply.n] };
  if (reply.env.type === "error") {
    if (reply.env.code === "unsupported_kind") return F.say("unsupported-kind", q, at);
    return F.say("other-error", { ...q, code: reply.env.code as Param }, at);
  }
  const frames = framesIn(reply.env);
  const outside = frames.filter((f) => typeof f.kind !== "string" || !q.kinds.includes(f.kind));
  if (outside.length === 0) return F.say("requested-kinds", { ...q, frames: frames.length }, at);
  return F.say(
    "other-kind",
    {
      ...q,
      outside: outside.slice(0, 5).map((f) => ({ id: f.id as Param, kind: f.kind as Param })),
      outside_count: outside.length,
      served: [...new Set(frames.map((f) => f.kind))] as Param[],
    },
    at,
  );
}

/** Every narrowed query a view sent, judged on its answer; `silent` decides what an unanswered one is evidence of. */
function narrowed(p: ProbeView, silent: (sent: Message, why: string, lines: number[]) => Evidence | undefined): Evidence[] {
  const out: Evidence[] = [];
  for (const sent of p.sent().filter((m) => m.env.type === "query" && kindsOf(m).length > 0)) {
    const reply = p.answer(sent.step, ["frames", "error"]);
    if (reply) out.push(judge(sent, reply));
    else {
      const s = p.silence(sent.step);
      const e = silent(sent, s.why, [sent.n, ...s.lines]);
      if (e) out.push(e);
    }
  }
  return out;
}

/**
 * @anchor Q1
 * Stimulus: probe kinds-query, derived from a discovery query: kinds [k] for
 * each declared or served kind (up to 16, served but undeclared first), served kinds in pairs, a kind with an anchor
 * on a frame of another kind, a kind with as_of, an undeclared base kind;
 * and probe unknown-kind's kinds ["acme:diagram"] (alone and beside a declared kind).
 * Reading: only a frame outside kinds fails (the MUST). An error other than
 * unsupported_kind warns: Q1 states "returns zero frames, or replies
 * unsupported_kind" with no keyword. A query the provider died on is R1's
 * finding in the unknown-kind session, and untestable here only in the shared one.
 */
export default defineCheck({
  findings: F.table,
  id: "Q1",
  title: "A kinds filter returns only those kinds",
  level: "MUST",
  requirement:
    "When kinds is non-empty, a provider MUST NOT return a frame whose kind is outside it. Empty kinds means any kind. A provider serving none of the requested kinds returns zero frames, or replies unsupported_kind.",
  probes: [KINDS_QUERY, UNKNOWN_KIND_PROBE],
  score({ probe }) {
    const out = [
      ...narrowed(probe(KINDS_QUERY), (sent, why, lines) => F.say("no-answer", { ...narrowedBy(sent), why }, { lines })),
      // Dying or wedging on it is R1's finding; staying silent and alive falls short of the outcome Q1 states.
      ...narrowed(probe(UNKNOWN_KIND_PROBE), (sent, why, lines) =>
        probe(UNKNOWN_KIND_PROBE).answer(UNKNOWN_KIND_PROBE.steps.after, ["frames"])
          ? F.say("unknown-kind-unanswered", { ...narrowedBy(sent), why }, { lines })
          : undefined,
      ),
    ];
    if (out.length > 0) return out;
    // A lost discovery query is a stimulus whose precondition broke: the shared not-observed finding, in the kit's words.
    const lost = discoveryLost(probe(KINDS_QUERY), KINDS_QUERY.steps.discover);
    return lost
      ? lost.map((e) => common.say("not-observed", { why: e.message }, { lines: e.lines }))
      : { skip: "no narrowed query was answered or sent: the discovery query served nothing and no kind is declared" };
  },
});
