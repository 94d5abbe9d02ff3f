import { counted } from "../src/verdict/words.ts";
import { discovery, discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { findings, type Param } from "./kit/findings.ts";
import { framesIn, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { AS_OF } from "../src/protocol/probes.ts";

type Bound = "valid_from" | "valid_to";

/** Which bound of a frame's validity window excludes an instant, if one does (bounds read inclusively: only a clear miss counts). */
function outside(f: Obj, at: number): { bound: Bound; value: string } | undefined {
  const from = typeof f.valid_from === "string" ? Date.parse(f.valid_from) : NaN;
  const to = typeof f.valid_to === "string" ? Date.parse(f.valid_to) : NaN;
  if (!Number.isNaN(from) && at < from) return { bound: "valid_from", value: f.valid_from as string };
  if (!Number.isNaN(to) && at > to) return { bound: "valid_to", value: f.valid_to as string };
  return undefined;
}

/** frames: each returned outside the window, with the bound that excludes it; bounds: those bounds, distinct (a different bound is a different defect). */
type Outside = { as_of: string; frames: { id: Param; bound: Bound; value: string }[]; bounds: Bound[] };

const F = findings({
  "pinned-unanswered": {
    untestable: true,
    says: (p: { as_of: string; line: number; why: string }) => `query pinned at as_of ${p.as_of} (line ${p.line}) got no answer: ${p.why}`,
  },
  "pinned-refused": {
    apart: ["error"],
    says: (p: { as_of: string; error: Param }) => `query pinned at as_of ${p.as_of} was refused with error ${show(p.error)}`,
    expected: () => "frames valid at that instant",
    actual: (p: { error: Param }) => `error ${show(p.error)}`,
  },
  "valid-then": {
    ok: true,
    says: (p: { as_of: string; frames: number }) => `pinned at as_of ${p.as_of}: ${counted(p.frames, "frame")}, all valid then`,
  },
  "outside-window": {
    apart: ["bounds"],
    says: (p: Outside) =>
      `pinned at as_of ${p.as_of}, the provider returned ${p.frames
        .map((f) => `frame ${show(f.id)}, whose ${f.bound} ${f.value} is ${f.bound === "valid_from" ? "after" : "before"} it`)
        .join("; ")}`,
    expected: (p: Outside) => `only frames whose validity window contains ${p.as_of}`,
    actual: (p: Outside) => p.frames.map((f) => show(f.id)).join(", "),
  },
});

/**
 * @section 6 (F4's semantics; no anchor number)
 * Stimulus: probe as-of: queries pinned at instants that some served frame's
 * validity window excludes (a day past a valid_to, a day before a valid_from).
 * Reading: §6.1 states the semantics with no keyword ("as_of pins retrieval to
 * an instant"), so the check's level is NONE: a frame outside the window, or
 * a refused pinned query, warns, and stays a warning under --strict.
 */
export default defineCheck({
  findings: { ...F.table, ...discovery.table },
  id: "S6-as-of",
  follows: "F4",
  title: "A query pinned with as_of gets only frames valid at that instant",
  level: "NONE",
  requirement:
    "valid_from/valid_to bound when the content was true in the world; recorded_at is when the provider learned it. as_of pins retrieval to an instant.",
  probes: [AS_OF],
  score({ probe }) {
    const p = probe(AS_OF);
    const pinned = p.sent().filter((m) => m.step.startsWith("pinned-"));
    if (pinned.length === 0)
      return (
        discoveryLost(p, AS_OF.steps.unpinned) ?? { skip: "no served frame carries valid_from or valid_to, so no instant outside a window could be chosen" }
      );
    const out: Evidence[] = [];
    for (const q of pinned) {
      const asOf = (q.env.query as { as_of: string }).as_of;
      const reply = p.answer(q.step, ["frames", "error"]);
      if (!reply) {
        const s = p.silence(q.step);
        out.push(F.say("pinned-unanswered", { as_of: asOf, line: q.n, why: s.why }, { lines: [q.n, ...s.lines] }));
        continue;
      }
      const lines = [q.n, reply.n];
      if (reply.env.type === "error") {
        out.push(F.say("pinned-refused", { as_of: asOf, error: reply.env.code as Param }, { lines }));
        continue;
      }
      const at = Date.parse(asOf);
      const bad = framesIn(reply.env).flatMap((f) => {
        const why = outside(f, at);
        return why ? [{ id: f.id as Param, ...why }] : [];
      });
      out.push(
        bad.length === 0
          ? F.say("valid-then", { as_of: asOf, frames: framesIn(reply.env).length }, { lines })
          : F.say("outside-window", { as_of: asOf, frames: bad, bounds: [...new Set(bad.map((f) => f.bound))].sort() }, { lines }),
      );
    }
    return out;
  },
});
