import { counted } from "../src/verdict/words.ts";
import { discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { KINDS_QUERY, UNKNOWN_KIND_PROBE } from "../src/protocol/probes.ts";
import { type Message, type ProbeView } from "../src/transcript/view.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";

const kindsOf = (m: Message): string[] => {
  const k = (m.env.query as { kinds?: unknown } | undefined)?.kinds;
  return Array.isArray(k) ? k.filter((x): x is string => typeof x === "string") : [];
};

function anchorsOf(m: Message): string {
  const a = (m.env.query as { anchors?: unknown; as_of?: unknown } | undefined) ?? {};
  return [
    Array.isArray(a.anchors) && a.anchors.length > 0 ? ` anchored on ${show(a.anchors[0], 60)}` : "",
    typeof a.as_of === "string" ? ` as_of ${a.as_of}` : "",
  ].join("");
}

function judge(sent: Message, reply: Message): Evidence {
  const kinds = kindsOf(sent);
  const what = `kinds ${show(kinds)}${anchorsOf(sent)} (line ${sent.n})`;
  const lines = [sent.n, reply.n];
  if (reply.env.type === "error") {
    if (reply.env.code === "unsupported_kind") return { ok: true, message: `${what} answered with unsupported_kind`, lines };
    // Q1 states the outcome ("returns zero frames, or replies unsupported_kind") with no keyword: a warning, never a failure.
    return {
      ok: false,
      level: "NONE",
      message: `${what} answered with error ${show(reply.env.code)}; Q1 states the outcome as zero frames, or unsupported_kind (no keyword: a warning)`,
      expected: "frames of the requested kinds, or error unsupported_kind",
      actual: `error ${show(reply.env.code)}`,
      lines,
    };
  }
  const frames = framesIn(reply.env);
  const outside = frames.filter((f) => typeof f.kind !== "string" || !kinds.includes(f.kind));
  return outside.length === 0
    ? { ok: true, message: `${what}: ${counted(frames.length, "frame")}, all of the requested kinds`, lines }
    : {
        ok: false,
        message: `${what} returned ${outside.length} frame${outside.length > 1 ? "s" : ""} of another kind: ${outside
          .slice(0, 5)
          .map((f) => `${show(f.id)} (${show(f.kind)})`)
          .join(", ")}`,
        expected: `only frames of kind ${kinds.map((k) => show(k)).join(" or ")}`,
        actual: `kinds ${show([...new Set(frames.map((f) => f.kind))])}`,
        lines,
      };
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
  id: "Q1",
  title: "A kinds filter returns only those kinds",
  level: "MUST",
  requirement:
    "When kinds is non-empty, a provider MUST NOT return a frame whose kind is outside it. Empty kinds means any kind. A provider serving none of the requested kinds returns zero frames, or replies unsupported_kind.",
  probes: [KINDS_QUERY, UNKNOWN_KIND_PROBE],
  score({ probe }) {
    const out = [
      ...narrowed(probe(KINDS_QUERY), (sent, why, lines) => ({
        ok: false,
        untestable: true,
        message: `query for kinds ${show(kindsOf(sent))}${anchorsOf(sent)} (line ${sent.n}) got no answer: ${why}`,
        lines,
      })),
      // Dying or wedging on it is R1's finding; staying silent and alive falls short of the outcome Q1 states.
      ...narrowed(probe(UNKNOWN_KIND_PROBE), (sent, why, lines) =>
        probe(UNKNOWN_KIND_PROBE).answer(UNKNOWN_KIND_PROBE.steps.after, ["frames"])
          ? {
              ok: false,
              level: "NONE",
              message: `kinds ${show(kindsOf(sent))} (line ${sent.n}) got no answer (${why}), though the provider answered the next query; Q1 states the outcome as zero frames, or unsupported_kind (no keyword: a warning)`,
              lines,
            }
          : undefined,
      ),
    ];
    return out.length > 0
      ? out
      : (discoveryLost(probe(KINDS_QUERY), KINDS_QUERY.steps.discover) ?? {
          skip: "no narrowed query was answered or sent: the discovery query served nothing and no kind is declared",
        });
  },
});
