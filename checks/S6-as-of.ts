import { counted } from "../src/verdict/words.ts";
import { discoveryLost } from "./kit/answers.ts";
import { defineCheck, type Evidence } from "./kit/check.ts";
import { framesIn, type Obj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { AS_OF } from "../src/protocol/probes.ts";

/** Why a frame's validity window excludes an instant, if it does (bounds read inclusively: only a clear miss counts). */
function outside(f: Obj, at: number): string | undefined {
  const from = typeof f.valid_from === "string" ? Date.parse(f.valid_from) : NaN;
  const to = typeof f.valid_to === "string" ? Date.parse(f.valid_to) : NaN;
  if (!Number.isNaN(from) && at < from) return `valid_from ${f.valid_from} is after it`;
  if (!Number.isNaN(to) && at > to) return `valid_to ${f.valid_to} is before it`;
  return undefined;
}

/**
 * @section 6 (F4's semantics; no anchor number)
 * Stimulus: probe as-of: queries pinned at instants that some served frame's
 * validity window excludes (a day past a valid_to, a day before a valid_from).
 * Reading: §6.1 states the semantics with no keyword ("as_of pins retrieval to
 * an instant"), so the check's level is NONE: a frame outside the window, or
 * a refused pinned query, warns, and stays a warning under --strict.
 */
export default defineCheck({
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
        out.push({ ok: false, untestable: true, message: `query pinned at as_of ${asOf} (line ${q.n}) got no answer: ${s.why}`, lines: [q.n, ...s.lines] });
        continue;
      }
      const lines = [q.n, reply.n];
      if (reply.env.type === "error") {
        out.push({
          ok: false,
          message: `query pinned at as_of ${asOf} was refused with error ${show(reply.env.code)}`,
          expected: "frames valid at that instant",
          actual: `error ${show(reply.env.code)}`,
          lines,
        });
        continue;
      }
      const at = Date.parse(asOf);
      const bad = framesIn(reply.env)
        .map((f) => [f, outside(f, at)] as const)
        .filter(([, why]) => why !== undefined);
      out.push(
        bad.length === 0
          ? { ok: true, message: `pinned at as_of ${asOf}: ${counted(framesIn(reply.env).length, "frame")}, all valid then`, lines }
          : {
              ok: false,
              message: `pinned at as_of ${asOf}, the provider returned ${bad.map(([f, why]) => `frame ${show(f.id)}, whose ${why}`).join("; ")}`,
              expected: `only frames whose validity window contains ${asOf}`,
              actual: bad.map(([f]) => show(f.id)).join(", "),
              lines,
            },
      );
    }
    return out;
  },
});
