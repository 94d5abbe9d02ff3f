import { defineCheck, type Evidence } from "./kit/check.ts";
import { crashesIn, crashFindings } from "./kit/crash.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { identityName, NO_IDENTITY, unservedIdentities, verdictFor, verifyExchanges, verifying, type VerifyExchange, type VerifyStep } from "./kit/verify.ts";
import { crash } from "./kit/crash.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { framesIn, isObj, type Obj } from "../src/protocol/envelope.ts";
import { envelopeOf, type ProbeView } from "../src/transcript/view.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/** The four statuses (V3); a status outside them is V3's finding, not this one's. */
const STATUSES = ["valid", "stale", "gone", "unknown"];

const WHAT: Record<VerifyStep, string> = {
  [VERIFY.steps.verifyServed]: "identities it served moments ago, unchanged",
  [VERIFY.steps.verifyMutated]: "identities whose digest differs by one hex digit from what it served",
  [VERIFY.steps.verifyNeverServed]: "an identity it never served",
  [VERIFY.steps.verifyCase]: "identities whose frame id differs from a served one only in case",
  [VERIFY.steps.verifyDigestless]: "served identities without a content_digest",
};

/** Of an identity, what the provider owes: the statuses it may answer, and whether it may leave the identity out. */
interface Owed {
  allowed: string[];
  /** A missing verdict is read as unknown (V2): honest where unknown is. */
  mayOmit: boolean;
}

const ANY_BUT_VALID: Owed = { allowed: ["stale", "gone", "unknown"], mayOmit: true };

/** Whether the provider answered valid, in verify-served, for an identity: by its exact id, or by its id with case folded and the same digest. */
interface Serves {
  exact: (id: Obj) => boolean;
  folded: (id: Obj) => boolean;
}

/**
 * The verdicts the provider gave, in the step before, for the unchanged identities: valid says it still serves that
 * frame, unless the same query sent again after the changed digests' verify no longer serves it (it may have gone in
 * between; present before and after, it was present throughout).
 */
function stillServed(p: ProbeView, xs: VerifyExchange[], fold = false): (id: Obj) => boolean {
  const again = p.answer(VERIFY.steps.servedAgain, ["frames", "error"]);
  const gone = (id: Obj): boolean => again?.env.type === "frames" && !framesIn(again.env).some((f) => f.id === id.frame_id);
  const served = xs.find((x) => x.step === VERIFY.steps.verifyServed);
  const key = (v: unknown): unknown => (fold && typeof v === "string" ? v.toLowerCase() : v);
  return (id) => {
    const same = served?.identities.find(
      (s) => s.provider_id === id.provider_id && key(s.frame_id) === key(id.frame_id) && (!fold || s.content_digest === id.content_digest),
    );
    return same !== undefined && verdictFor(same, served!.verdicts)?.status === "valid" && !gone(same);
  };
}

/**
 * Where a stale verdict for what was served moments ago is shown false: a stale verdict for the same frame, in
 * another step, whose replacement_digest (the provider's "current digest for the frame", V4) is the very digest
 * presented, so the digest it serves now is the one it called stale. A replacement that echoes its own verdict's
 * presented digest shows nothing (V4 warns on that slip). The line of the reply that shows it, or undefined.
 */
function shownCurrent(xs: VerifyExchange[], id: Obj): { line: number; by: "replacement" } | undefined {
  for (const x of xs) {
    if (!x.reply) continue;
    const named = x.verdicts.some((v) => {
      const f = isObj(v.frame) ? v.frame : {};
      const current = v.status === "stale" && v.replacement_digest === id.content_digest && f.content_digest !== v.replacement_digest;
      return current && f.provider_id === id.provider_id && f.frame_id === id.frame_id;
    });
    if (named) return { line: x.reply.n, by: "replacement" };
  }
  return undefined;
}

function owed(step: VerifyStep, id: Obj, serves: Serves): Owed {
  switch (step) {
    case VERIFY.steps.verifyServed:
      // Stale or gone is honest where the source changed, or went, between the query and the verify: judged apart (changedSince).
      return { allowed: ["valid", "stale", "gone"], mayOmit: false };
    case VERIFY.steps.verifyCase:
      // No sentence says ids compare exactly: valid names the frame it answered valid for moments ago, by the digest it serves.
      return serves.folded(id) ? { allowed: STATUSES, mayOmit: true } : ANY_BUT_VALID;
    case VERIFY.steps.verifyMutated:
      return serves.exact(id) ? { allowed: ["stale"], mayOmit: false } : ANY_BUT_VALID;
    case VERIFY.steps.verifyDigestless:
      return { allowed: STATUSES, mayOmit: false };
    default:
      return ANY_BUT_VALID;
  }
}

const list = (ids: Obj[]): string[] => ids.slice(0, 3).map(identityName);

type Unanswered = { step: VerifyStep; line: number; error: Param; replied: boolean; why: string | null };
type Unechoed = { step: VerifyStep; missing: number; of: number; ids: string[]; verdicts: number; still_serving: boolean };
type Answers = { step: VerifyStep; answers: { [k: string]: string }[]; served_line: number | null };
/** Stale or gone for identities served moments ago: a few of them, how many, and the line of the same query sent again. */
type Since = { answers: { [k: string]: string }[]; count: number; again_line: number | null };

const noReply = {
  says: (p: Unanswered) => `verify of ${WHAT[p.step]} (line ${p.line}) got no verified reply`,
  expected: () => "a verified envelope",
  actual: (p: Unanswered) => (p.replied ? `error ${show(p.error)}` : (p.why ?? undefined)),
};
const unechoed = {
  says: (p: Unechoed) =>
    `${p.missing} of ${p.of} identities got no verdict echoing them in full: ${p.ids.join(", ")}${
      p.still_serving ? ` (verify of ${WHAT[p.step]}, for frames it still serves: a host reads the silence as unknown, not stale)` : ""
    }`,
  expected: () => "one verdict per identity, echoing provider_id, frame_id and content_digest",
  actual: (p: Unechoed) => `${p.verdicts} verdicts`,
};
const answered = (p: { answers: { [k: string]: string }[] }): string => p.answers.map((a) => `${a.status} for ${a.id}`).join("; ");

const F = findings({
  "no-reply": { apart: ["step", "replied"], ...noReply },
  // A request of digest-less identities breaks V1's host SHOULD: what a provider owes it carries no keyword of its own.
  "no-reply-keywordless": {
    cites: "a digest-less frame cannot be revalidated and is re-queried instead",
    level: "NONE",
    apart: ["step", "replied"],
    ...noReply,
  },
  unechoed: { apart: ["step"], ...unechoed },
  "unechoed-keywordless": { cites: "a digest-less frame cannot be revalidated and is re-queried instead", level: "NONE", apart: ["step"], ...unechoed },
  "valid-for-changed": {
    apart: ["step"],
    says: (p: Answers & { only_stale: boolean }) => `verify of ${WHAT[p.step]} answered ${answered(p)}`,
    // Where each of them names a frame it still serves, stale is the one honest answer.
    expected: (p: Answers & { only_stale: boolean }) => (p.only_stale ? "stale" : "stale, gone or unknown"),
    actual: () => '"valid"',
  },
  "wrong-status": {
    apart: ["step"],
    says: (p: Answers & { statuses: string[] }) =>
      p.step === VERIFY.steps.verifyServed
        ? `verify of ${WHAT[p.step]} answered ${answered(p)}`
        : `verify of ${WHAT[p.step]}, for frames it still serves (it answered valid for them unchanged${p.served_line !== null ? `, line ${p.served_line}` : ""}), answered ${answered(p)}`,
    expected: (p: Answers) => (p.step === VERIFY.steps.verifyServed ? "valid" : "stale"),
    actual: (p: Answers & { statuses: string[] }) => p.statuses.join(", "),
  },
  "stale-served": {
    level: "MAY",
    reading:
      "a frame whose source changed between the query and the verify is honestly stale, and one whose source went is gone (context-reuse §4: different ⇒ stale), and nothing in the run shows the source held still",
    says: (p: Since) =>
      `verify of identities it served moments ago answered ${answered(p)}${p.count > 3 ? ", …" : ""}; their sources may have changed${p.again_line !== null ? ` (the same query again, line ${p.again_line}, did not serve them with the digest presented)` : ""}`,
  },
  "stale-unchanged": {
    says: (p: Since & { shown_line: number; by: "replacement" | "served-again" }) =>
      `verify of identities it served moments ago answered ${answered(p)}${p.count > 3 ? ", …" : ""}; yet ${
        p.by === "served-again"
          ? `the same query sent again after (line ${p.shown_line}) served ${p.count > 1 ? "them" : "it"} with the very digest presented: the bytes held still, so they are the bytes it serves`
          : `its own stale verdict for the same frame (line ${p.shown_line}) gives that very digest as its replacement_digest, the digest it serves now`
      }`,
    expected: () => "valid: the presented digest is the one it serves",
    actual: (p: Since) => [...new Set(p.answers.map((a) => `"${a.status}"`))].join(", "),
  },
  honest: { ok: true, apart: ["step"], says: (p: { step: VerifyStep; held: string }) => `verify of ${WHAT[p.step]}: ${p.held}` },
});

function scoreExchange(
  p: ProbeView,
  x: VerifyExchange,
  xs: VerifyExchange[],
  serves: Serves,
  servedLine: number | undefined,
  diedOn: ReadonlySet<number>,
): Evidence[] {
  // A request of digest-less identities breaks V1's host SHOULD: what a provider owes it carries no keyword of its own.
  const keywordless = x.step === VERIFY.steps.verifyDigestless;
  // A verify the provider died on is one of the crashes, one finding per cause.
  if (!x.reply && diedOn.has(x.sent.n)) return [];
  if (x.reply?.env.type !== "verified") {
    const s = p.silence(x.step);
    const params = { step: x.step, line: x.sent.n, error: (x.reply?.env.code ?? null) as Param, replied: x.reply !== undefined, why: x.reply ? null : s.why };
    return [F.say(keywordless ? "no-reply-keywordless" : "no-reply", params, { lines: [x.sent.n, ...(x.reply ? [x.reply.n] : s.lines)] })];
  }
  const lines = [x.sent.n, x.reply.n];
  const out: Evidence[] = [];
  const judged = x.identities.map((id) => ({ id, v: verdictFor(id, x.verdicts), owed: owed(x.step, id, serves) }));
  const missing = judged.filter((j) => !j.v);
  const owedMissing = missing.filter((j) => !j.owed.mayOmit);
  if (owedMissing.length > 0) {
    const stillServing = x.step === VERIFY.steps.verifyMutated;
    const params = {
      step: x.step,
      missing: owedMissing.length,
      of: x.identities.length,
      ids: list(owedMissing.map((j) => j.id)),
      verdicts: x.verdicts.length,
      still_serving: stillServing,
    };
    out.push(
      F.say(keywordless ? "unechoed-keywordless" : "unechoed", params, { lines: stillServing && servedLine !== undefined ? [...lines, servedLine] : lines }),
    );
  }
  const known = judged.filter((j) => j.v && STATUSES.includes(j.v.status as string));
  const valid = known.filter((j) => j.v!.status === "valid" && !j.owed.allowed.includes("valid"));
  if (valid.length > 0) {
    const answers = valid.slice(0, 3).map((j) => ({ status: show(j.v!.status), id: identityName(j.id) }));
    out.push(
      F.say("valid-for-changed", { step: x.step, answers, served_line: servedLine ?? null, only_stale: valid.every((j) => !j.owed.mayOmit) }, { lines }),
    );
  }
  if (x.step === VERIFY.steps.verifyServed) out.push(...changedSince(p, xs, known, lines));
  const notStale = known.filter((j) => j.v!.status !== "valid" && !j.owed.allowed.includes(j.v!.status as string));
  if (notStale.length > 0) {
    // The statuses as shown: the words, and the set of what was answered.
    const answers = notStale.slice(0, 3).map((j) => ({ status: show(j.v!.status), id: identityName(j.id) }));
    const all = [...new Set(notStale.map((j) => show(j.v!.status)))];
    out.push(
      F.say(
        "wrong-status",
        { step: x.step, answers, served_line: servedLine ?? null, statuses: all },
        { lines: x.step === VERIFY.steps.verifyMutated && servedLine !== undefined ? [...lines, servedLine] : lines },
      ),
    );
  }
  if (out.length === 0) out.push(F.say("honest", { step: x.step, held: heldBy(x.step, judged, missing.length) }, { lines }));
  return out;
}

/**
 * Stale or gone for what was served moments ago: honest where the source changed or went since, false where the
 * run shows it did not: the same query sent again right after the verify served the frame with the very digest
 * presented (read before and after, the same bytes), or the provider's own replacement_digest names that digest.
 */
function changedSince(p: ProbeView, xs: VerifyExchange[], known: Array<{ id: Obj; v?: Obj }>, lines: number[]): Evidence[] {
  const again = p.answer(VERIFY.steps.servedAgain, ["frames", "error"]);
  const againFrames = again?.env.type === "frames" ? framesIn(again.env) : [];
  const servedAgain = (id: Obj): boolean => againFrames.some((f) => f.id === id.frame_id && f.content_digest === id.content_digest);
  const changed = known
    .filter((j) => j.v!.status === "stale" || j.v!.status === "gone")
    .map((j) => {
      const shown = servedAgain(j.id) ? { line: again!.n, by: "served-again" as const } : shownCurrent(xs, j.id);
      return { id: j.id, status: j.v!.status as string, shown };
    });
  const shown = changed.filter((j) => j.shown !== undefined);
  const unshown = changed.filter((j) => j.shown === undefined);
  const since = (js: typeof changed): Since => ({
    answers: js.slice(0, 3).map((j) => ({ status: j.status, id: identityName(j.id) })),
    count: js.length,
    again_line: again?.n ?? null,
  });
  const first = shown[0]?.shown;
  return [
    ...(first
      ? [
          F.say(
            "stale-unchanged",
            { ...since(shown), shown_line: first.line, by: first.by },
            { lines: [...new Set([...lines, ...(first.by === "served-again" ? p.sent(VERIFY.steps.servedAgain).map((m) => m.n) : []), first.line])] },
          ),
        ]
      : []),
    ...(unshown.length > 0 ? [F.say("stale-served", since(unshown), { lines })] : []),
  ];
}

/** What the honest answer to a step was, in words, for its pass. */
function heldBy(step: VerifyStep, judged: Array<{ owed: Owed; v?: Obj }>, missing: number): string {
  const left = missing > 0 ? `; ${missing} left out, which a host reads as unknown` : "";
  if (step === VERIFY.steps.verifyServed) return "every identity answered valid";
  if (step === VERIFY.steps.verifyDigestless) return "a verified reply, one verdict each";
  if (step === VERIFY.steps.verifyMutated && judged.every((j) => !j.owed.mayOmit)) return "every identity answered stale";
  const valid = judged.filter((j) => j.v?.status === "valid").length;
  if (step === VERIFY.steps.verifyCase && valid > 0)
    return `${valid} answered valid, each for a frame it answered valid for moments ago with the same digest, its id compared without case (no sentence says ids compare exactly)${left}`;
  return `no verdict is valid${left}`;
}

/**
 * @anchor V2
 * Stimulus: probe verify. Witnessed, per the spec's table, by rubber-stamp
 * (valid for anything) and hollow (missing verdicts) providers; a provider
 * answering unknown to everything serves no verify at all.
 * Readings, from V2 and context-reuse §4 (its table's V1: "A provider
 * advertising verify MUST answer honestly by comparing digests: valid for a
 * frame whose presented digest matches what it currently serves, stale when
 * it differs on a frame it still serves. It MUST NOT answer valid for content
 * bytes it is not serving."):
 * - Every verify gets a verified reply (V2's MUST). A request of digest-less
 *   identities breaks the host's SHOULD (V1), so its reply carries no keyword
 *   of its own: a warning.
 * - The identities it served moments ago, unchanged: valid (MUST). A missing
 *   verdict is read as unknown (V2: "A requested identity that comes back with
 *   no verdict MUST be treated by the host as unknown"), so it fails as
 *   unknown does. Stale and gone do not fail: a frame whose source changed
 *   (or went) between the query and the verify is honestly stale (or gone)
 *   (context-reuse §4: "different ⇒ stale"), so they inform; they fail only
 *   where the run shows the bytes held still (as F5 reads a file before and
 *   after): the same query, sent again after that verify, serves the
 *   frame with the very digest presented; or the provider's stale verdict for
 *   the same frame in another step gives that digest as its
 *   replacement_digest ("the provider's current digest for the frame", V4),
 *   not echoing that verdict's own presented digest.
 * - Their digests off by one hex digit: never valid (MUST NOT). Where the
 *   provider answered valid for the unchanged identity in the step before, it
 *   still serves the frame, so the changed digest is stale (MUST): unknown,
 *   gone or no verdict fails. "A frame it still serves" is read from its own
 *   valid before, and the same query sent again after, serving the frame
 *   (present before and after, present throughout): where it gave no valid,
 *   or the query again no longer serves the frame, it may have stopped
 *   serving it, and gone, unknown or silence is honest.
 * - An identity it never served: anything but valid, since V1 forbids only
 *   a false valid; stale and gone are both honest there. A missing verdict is
 *   read as unknown, which is honest for it: no warning either.
 * - A served id with its case flipped: no sentence says frame ids compare
 *   exactly (the spec says digests "are compared byte-for-byte", and says it
 *   of nothing else), so a provider whose ids fold case may take it for the
 *   frame it served. Valid passes where it names a frame the provider
 *   answered valid for moments ago with the same digest (it serves those
 *   bytes, so V1's MUST NOT is not broken); anything else, and a missing
 *   verdict, passes too. Valid for a case-flipped id of a frame it did not
 *   confirm is valid for bytes it is not shown to serve, and fails. Of the
 *   two readings (ids compare exactly; ids compare as the provider's own
 *   do), this is the one that never fails an honest case-folding provider.
 * - The served ids without a digest: any status; "the provider answers one
 *   verdict each" (context-reuse §4) carries no keyword, so a missing verdict
 *   warns.
 */
export default defineCheck({
  findings: { ...F.table, ...verifying.table, ...crash.table },
  id: "V2",
  title: "Provider answers verify honestly, one verdict per identity",
  level: "MUST",
  requirement:
    "A provider declaring capabilities.verify MUST answer a verify with a verified reply. A requested identity that comes back with no verdict MUST be treated by the host as unknown. " +
    "[context-reuse §4: A provider advertising verify MUST answer honestly by comparing digests: valid for a frame whose presented digest matches what it currently serves, stale when it differs on a frame it still serves. It MUST NOT answer valid for content bytes it is not serving.]",
  probes: [VERIFY],
  score({ probe }) {
    const p = probe(VERIFY);
    if (capabilities(p.ack()?.env).verify !== true) return { skip: "capabilities.verify is not declared: a host re-queries instead" };
    const xs = verifyExchanges(p);
    if (xs.length === 0) return unservedIdentities(p) ?? { skip: NO_IDENTITY };
    const serves = { exact: stillServed(p, xs), folded: stillServed(p, xs, true) };
    const servedLine = xs.find((x) => x.step === VERIFY.steps.verifyServed)?.reply?.n;
    // Dying on a verify is the plainest way not to answer it with a verified reply; a crash on the query before them is R1's.
    const crashes = crashesIn([p]).filter((c) => envelopeOf(c.stimulus)?.type === "verify");
    const diedOn = new Set(crashes.map((c) => c.stimulus.n));
    return [
      ...xs.flatMap((x) => scoreExchange(p, x, xs, serves, servedLine, diedOn)),
      ...crashFindings(crashes, "V2: a provider declaring capabilities.verify MUST answer a verify with a verified reply"),
    ];
  },
});
