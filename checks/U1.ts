import { defineCheck, type Evidence } from "./kit/check.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { HANDSHAKE_STEP, UNKNOWN_MEMBERS } from "../src/protocol/probes.ts";
import type { Message, ProbeView } from "../src/transcript/view.ts";

/** The frames an answer served, as a set of ids: ranking is provider-private (§5), so order says nothing. */
const served = (env: Obj): string[] => [...new Set(framesIn(env).map((f) => JSON.stringify(f.id)))].sort();

/** A result cut short of its candidates: which frames made the cut may differ whenever the ranking does (ties, approximate indexes, recency). */
const frames = (n: number): string => `${n} frame${n === 1 ? "" : "s"}`;

const cut = (env: Obj): boolean => isObj(env.result) && env.result.truncated === true;

const SAME = "the same answer as the plain query";
const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);
/** Why a plain query answered otherwise the second time informs: nothing is left to compare the decorated answer with. */
const UNSTABLE =
  "a provider that retains what it receives (data_flow.writes) or serves a live index may answer the same query differently each time, so only two plain answers that agree show what the one with unknown members should have been served";
const some = (ids: string[], n: number, count: number): string => `${ids.join(", ")}${count > n ? ", …" : ""}`;

/** Two answers' frame sets (ids as JSON texts): the first few of each list, and how many there were. */
type Differ = {
  missing: string[];
  missing_count: number;
  added: string[];
  added_count: number;
  plain: string[];
  plain_count: number;
  served: string[];
  served_count: number;
};

const F = findings({
  "handshake-refused": {
    says: () => "a handshake carrying an unknown member got no handshake_ack",
    expected: () => "handshake_ack",
    actual: (p: { got: { type: Param; code?: Param } | null; why: string | null }) =>
      p.got ? `${show(p.got.type)}${p.got.code !== undefined ? ` with code ${show(p.got.code)}` : ""}` : (p.why ?? undefined),
  },
  "handshake-acked": { ok: true, says: () => "a handshake carrying an unknown member was acknowledged" },
  "plain-unanswered": {
    untestable: true,
    says: (p: { line: number; why: string }) => `the plain query to compare against (line ${p.line}) got no answer: ${p.why}`,
  },
  "decorated-unanswered": {
    says: (p: { line: number; why: string }) => `a query carrying unknown members (line ${p.line}) got no answer: ${p.why}`,
    expected: () => SAME,
    actual: (p: { why: string }) => p.why,
  },
  rejected: {
    says: (p: { code: Param; message: Param }) =>
      `the query with unknown members was rejected with error ${show(p.code)}; the plain one was answered, before it and after it`,
    expected: () => SAME,
    actual: (p: { code: Param; message: Param }) => `error ${show(p.code)}: ${show(p.message)}`,
  },
  "both-refused": {
    ok: true,
    says: (p: { plain: Param; decorated: Param }) =>
      `both queries were refused (error ${show(p.plain)}, error ${show(p.decorated)}): the unknown members made no difference`,
  },
  "plain-refused": {
    ok: true,
    says: (p: { plain: Param }) =>
      `the plain query was refused (error ${show(p.plain)}) and the one with unknown members answered: nothing was rejected for them`,
  },
  "same-frames": { ok: true, says: (p: { frames: number }) => `the query with unknown members was served the same ${frames(p.frames)} as without them` },
  "truncated-apart": {
    ok: true,
    apart: ["cut"],
    says: (p: { served: number; missing: number; plain: number; cut: "both" | "plain" | "decorated" }) =>
      `the query with unknown members was served ${frames(p.served)}, ${p.missing} of the plain query's ${p.plain} not among them, but ${p.cut === "both" ? "both answers were" : `the ${p.cut} answer was`} truncated: which frames make the cut varies with the ranking, so nothing shows the unknown members were not ignored`,
  },
  "same-as-again": {
    ok: true,
    says: (p: { frames: number }) =>
      `the query with unknown members was served the same ${frames(p.frames)} as the plain query sent after it (the first plain answer differed from both)`,
  },
  "different-frames": {
    says: (p: Differ) =>
      `the query with unknown members was served a different set of frames than the same query without them, sent before and after it with the same answer both times: ${p.missing_count} of the plain query's ${frames(p.plain_count)} missing (${some(p.missing, 3, p.missing_count)}), ${p.added_count} others added${p.added_count > 0 ? ` (${some(p.added, 3, p.added_count)})` : ""}; no answer was truncated`,
    expected: (p: Differ) => `the plain query's frames: ${some(p.plain, 5, p.plain_count)}`,
    actual: (p: Differ) => (p.served_count === 0 ? "no frames" : some(p.served, 5, p.served_count)),
  },
  "plain-unstable": {
    level: "MAY",
    reading: UNSTABLE,
    says: (p: { first: number; again: number; added: number; missing: number; served: number }) =>
      `the plain query, sent before and after the one with unknown members, was served ${frames(p.first)} and then ${frames(p.again)} (${p.added} added, ${p.missing} gone), and the one with unknown members ${frames(p.served)}, the same as neither: the provider's answers change from one query to the next, so the comparison cannot be made`,
  },
  "shared-left-out": {
    level: "SHOULD",
    reading:
      "frames served to the plain query both before and after were left out of the answer with unknown members; where the answers change from query to query, a ranking that varies at its cut could leave them out too, so the run cannot show the unknown members did",
    says: (p: { shared: number; left_out: number; ids: string[]; served: number }) =>
      `the plain query, sent before and after the one with unknown members, was served ${frames(p.shared)} both times, and the one with unknown members left out ${p.left_out} of them (${some(p.ids, 3, p.left_out)}; it was served ${frames(p.served)}): ignoring an unknown member leaves the answer as it would be without it`,
    expected: () => "the frames both plain answers served",
    actual: (p: { served: number }) => frames(p.served),
  },
  "plain-again-refused": {
    level: "MAY",
    reading: UNSTABLE,
    says: (p: { code: Param; line: number }) =>
      `the plain query sent again after the one with unknown members (line ${p.line}) was refused with error ${show(p.code)}: the provider no longer answers the plain query as it did, so the comparison cannot be made`,
  },
  "plain-again-unanswered": {
    untestable: true,
    says: (p: { line: number | null; why: string }) =>
      `the plain query sent again after the one with unknown members${p.line !== null ? ` (line ${p.line})` : ""} got no answer: ${p.why}; without it nothing shows the plain query is still answered as it was`,
  },
});

/**
 * Whether the plain query sent again was answered with frames: if not, the finding that says why the comparison
 * cannot be made (refused: informs; unanswered: not observed).
 */
function settled(p: ProbeView, again: Message | undefined, lines: number[]): Evidence | undefined {
  if (again?.env.type === "frames") return undefined;
  const q = p.sent(UNKNOWN_MEMBERS.steps.plainAgain)[0];
  if (again) return F.say("plain-again-refused", { code: again.env.code as Param, line: q?.n ?? again.n }, { lines });
  const s = q ? p.silence(UNKNOWN_MEMBERS.steps.plainAgain) : undefined;
  return F.say(
    "plain-again-unanswered",
    { line: q?.n ?? null, why: s?.why ?? "it was not sent" },
    { lines: [...lines, ...(q ? [q.n] : []), ...(s?.lines ?? [])] },
  );
}

/**
 * @anchor U1
 * Stimulus: probe unknown-members: a handshake with an unknown member, then
 * the same query plain, decorated with unknown members at the envelope and
 * query level, and plain again.
 * Reading: a provider's ranking may change between two identical queries
 * (ties, approximate indexes, recency: §5 keeps it provider-private), so the
 * answers are compared as sets of frame ids, never by order or content. And
 * a provider that retains what it receives (data_flow.writes) or serves a
 * live index may answer each query with one frame more than the last, so
 * the decorated answer is held only to a plain answer that the plain query
 * got twice, before and after it: where the two plain answers differ (or the
 * second is refused), the comparison cannot be made and the check informs,
 * never passes or fails on it. A decorated answer the same as either plain
 * one passes. Nothing else may explain a difference: a truncated answer may
 * keep other frames at its cut whenever the ranking moves, and a plain query
 * refused leaves nothing to compare. A decorated query refused while the
 * plain one was answered both times, or served a different set from the two
 * agreeing plain answers with none truncated, is the rejection or the
 * dependence on unknown members U1 forbids (MUST).
 */
export default defineCheck({
  findings: F.table,
  id: "U1",
  title: "Unknown members are ignored, not rejected",
  level: "MUST",
  requirement:
    "A receiver MUST ignore an object member it does not recognise, in any envelope, capability set, frame, or nested object — it MUST NOT reject the message on that basis.",
  probes: [UNKNOWN_MEMBERS],
  scoresHandshake: true,
  score({ probe }) {
    const p = probe(UNKNOWN_MEMBERS);
    const hs = p.sent(HANDSHAKE_STEP)[0]!;
    const ack = p.ack();
    if (!ack) {
      const s = p.silence(HANDSHAKE_STEP);
      const got = p.received(HANDSHAKE_STEP)[0];
      return [
        F.say(
          "handshake-refused",
          { got: got ? { type: got.env.type as Param, code: got.env.code as Param } : null, why: got ? null : s.why },
          { lines: [hs.n, ...(got ? [got.n] : s.lines)] },
        ),
      ];
    }
    const out: Evidence[] = [F.say("handshake-acked", {}, { lines: [hs.n, ack.n] })];
    const plain = p.answer(UNKNOWN_MEMBERS.steps.plain, ["frames", "error"]);
    const decorated = p.answer(UNKNOWN_MEMBERS.steps.decorated, ["frames", "error"]);
    const sent = p.sent(UNKNOWN_MEMBERS.steps.decorated)[0];
    if (!plain) {
      const q = p.sent(UNKNOWN_MEMBERS.steps.plain)[0];
      if (q) {
        const s = p.silence(UNKNOWN_MEMBERS.steps.plain);
        out.push(F.say("plain-unanswered", { line: q.n, why: s.why }, { lines: [q.n, ...s.lines] }));
      }
      return out;
    }
    if (!sent) return out;
    if (!decorated) {
      const s = p.silence(UNKNOWN_MEMBERS.steps.decorated);
      out.push(F.say("decorated-unanswered", { line: sent.n, why: s.why }, { lines: [sent.n, ...s.lines] }));
      return out;
    }
    const again = p.answer(UNKNOWN_MEMBERS.steps.plainAgain, ["frames", "error"]);
    const lines = [plain.n, sent.n, decorated.n, ...(again ? [again.n] : [])];
    if (plain.env.type === "error" || decorated.env.type === "error") {
      if (plain.env.type !== "error") {
        // Refused with unknown members, answered without: a rejection, once the plain query is shown answered still.
        const unsettled = settled(p, again, lines);
        out.push(unsettled ?? F.say("rejected", { code: decorated.env.code as Param, message: decorated.env.message as Param }, { lines }));
      } else {
        out.push(
          decorated.env.type === "error"
            ? F.say("both-refused", { plain: plain.env.code as Param, decorated: decorated.env.code as Param }, { lines })
            : F.say("plain-refused", { plain: plain.env.code as Param }, { lines }),
        );
      }
      return out;
    }
    const before = served(plain.env);
    const after = served(decorated.env);
    if (same(before, after)) {
      out.push(F.say("same-frames", { frames: before.length }, { lines: [plain.n, sent.n, decorated.n] }));
      return out;
    }
    const unsettled = settled(p, again, lines);
    if (unsettled) {
      out.push(unsettled);
      return out;
    }
    const later = served(again!.env);
    if (!same(before, later)) {
      // Frames both plain answers served, present before and after it: the answer with unknown members left them out.
      const shared = before.filter((id) => later.includes(id));
      const leftOut = shared.filter((id) => !after.includes(id));
      if (leftOut.length > 0 && !same(after, later)) {
        out.push(F.say("shared-left-out", { shared: shared.length, left_out: leftOut.length, ids: leftOut.slice(0, 3), served: after.length }, { lines }));
        return out;
      }
      out.push(
        same(after, later)
          ? F.say("same-as-again", { frames: after.length }, { lines })
          : F.say(
              "plain-unstable",
              {
                first: before.length,
                again: later.length,
                added: later.filter((id) => !before.includes(id)).length,
                missing: before.filter((id) => !later.includes(id)).length,
                served: after.length,
              },
              { lines },
            ),
      );
      return out;
    }
    const missing = before.filter((id) => !after.includes(id));
    const added = after.filter((id) => !before.includes(id));
    if (cut(plain.env) || cut(decorated.env) || cut(again!.env)) {
      const plainCut = cut(plain.env) || cut(again!.env);
      const which = plainCut && cut(decorated.env) ? "both" : plainCut ? "plain" : "decorated";
      out.push(F.say("truncated-apart", { served: after.length, missing: missing.length, plain: before.length, cut: which }, { lines }));
    } else {
      out.push(
        F.say(
          "different-frames",
          {
            missing: missing.slice(0, 3),
            missing_count: missing.length,
            added: added.slice(0, 3),
            added_count: added.length,
            plain: before.slice(0, 5),
            plain_count: before.length,
            served: after.slice(0, 5),
            served_count: after.length,
          },
          { lines },
        ),
      );
    }
    return out;
  },
});
