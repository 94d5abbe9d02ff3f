import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { carriedOn, delivered, sameDelivery } from "../kit/delivered.ts";
import { findings } from "../kit/findings.ts";
import { kinds, kindsKept } from "../kit/kinds.ts";
import { ended, endingClass, endingParam, endingsParams, endingWords, lineWords, type Ending, type EndingsParams } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import type { ServedFrame } from "../kit/served.ts";
import { framesIn, isObj, type Obj } from "../../src/protocol/envelope.ts";
import { LOCK_STEP, UNKNOWN_KIND, UNKNOWN_REL, UNKNOWN_VOCABULARY } from "../../src/protocol/host-scenarios.ts";
import { describeEnding } from "../../src/transcript/host.ts";

/** The answers that carried the unknown kind and the unknown rel to the host, by line. */
type Served = { kind_at: number[]; rel_at: number[] };
const served = (p: Served): string =>
  [
    ...(p.kind_at.length > 0
      ? [`kind ${show(UNKNOWN_KIND)} (${lineWords(p.kind_at)})`]
      : [`no frame of kind ${show(UNKNOWN_KIND)} (every query narrowed kinds)`]),
    ...(p.rel_at.length > 0 ? [`rel ${show(UNKNOWN_REL)} (${lineWords(p.rel_at)})`] : []),
  ].join("; ");

const F = findings({
  crashed: {
    says: (p: Served & { ending: Ending }) =>
      `scenario unknown-vocabulary: after it was served ${served(p)}, the host crashed (it ${ended(p.ending)}, line ${p.ending.n}); treat an unknown kind or rel as opaque evidence`,
    expected: () => "the host carries on, as in lock-step",
    actual: (p: { ending: Ending }) => ended(p.ending),
  },
  "ending-alike": { ok: true, says: (p: EndingsParams & Served) => `${endingWords.alike(p)}; it was served ${served(p)}` },
  "ending-differs": {
    says: (p: EndingsParams & Served) => `${endingWords.differs(p)}; it was served ${served(p)}`,
    expected: endingWords.expected,
    actual: endingWords.actual,
  },
});

/**
 * @anchor U2
 * Stimulus: scenarios unknown-vocabulary and lock-step (the baseline),
 * identical but for vocabulary: in unknown-vocabulary the first frame of each
 * answer carries a relation with the unknown namespaced rel
 * cgp-conform:echoes, and is of the unknown kind hologram where the query did
 * not narrow kinds (served against a kinds filter it would break Q1).
 * Precondition: a frames answer carrying the unknown rel or kind reached the
 * host (else nothing unknown was served: skip).
 * Findings, a differential as for U1: an ending unlike lock-step's (kind and
 * exit status) fails, as a host that failed to deserialise or rejected the
 * frame would end. A crash (ended by a signal) in unknown-vocabulary fails
 * whatever lock-step did: U2's "MUST NOT … crash" is absolute, and no honest
 * host crashes. A hang in both is consistent: the host's own way of ending,
 * not the vocabulary's doing. The evidence says which of the unknown kind and
 * rel were served.
 * Where the endings are alike (else the ending is the one finding of the
 * cause), what it delivered, where it writes {context} (CGP_CONTEXT_PATH): every
 * frame of both scenarios carries a marker of its own in its content, the
 * same document the same marker in each (the first frame of each answer is
 * the one that carries the unknown kind and rel). Block by block, the i-th
 * block holding a served frame in unknown-vocabulary against lock-step's
 * i-th: holding none of the frames of a known kind (and no unknown rel)
 * that lock-step's holds, or no such block at all, fails: the host composed
 * nothing of the answer, as one that failed to deserialise or rejected it
 * would, though it ended as in lock-step. Holding some of them warns (a host's own
 * selection may differ where one frame changed kind); leaving out the frame
 * of the unknown kind or rel itself warns (reading: "MAY decline to
 * specialise its handling" permits handling it generically, and dropping it
 * is no keyworded failure). Where the host writes blocks but lock-step's
 * hold no served frame (no marker: they hold no frame content), one finding
 * at info level says that what it delivered cannot be compared, so a pass
 * on the ending alone is no clean pass (reading: nothing of the defect U2
 * is about can be seen there, and no keyword asks a host to put frame
 * content in a block, so it informs, never warns); where it writes no block
 * at all, that comparison says nothing. Carrying on: where in lock-step the
 * host sent another query after its first answer (a host of several
 * turns), a query after the unknown answer is looked for too (the scenario
 * provider answers it as lock-step's does, and its block is the next one
 * compared); none warns (its next query may hang on what the answer held,
 * an unknown kind it declines to specialise for). Reading: that the host
 * carried on is judged by what it received and used, not by the provider
 * having answered (a host whose reader died sends its next query, the
 * provider answers it, and the host never sees the answer): it passes only
 * where a block after its first holds frames of that next answer, as
 * lock-step's does; no such block warns, unless the block comparison
 * already told that lock-step's later block has no counterpart (one cause,
 * one finding). Where lock-step shows no block of a later answer (its
 * blocks hold no frame content, or it writes one), only that the host sent
 * its next query is said, with that whether it received the answer cannot
 * be seen. A host that sends one query shows nothing there.
 * The kind kept verbatim (checks/kit/kinds.ts), where the endings are alike:
 * in each block holding the frame of the unknown kind, where the host shows
 * every frame of a base kind with its kind string as served beside it (the
 * text between its marker and its neighbours'), the frame of the unknown
 * kind must have hologram beside it, verbatim; another kind there ("unknown",
 * doc, a case-changed hologram) or none fails, one finding per block.
 * Reading: rendering a frame into a block is taken as re-emitting it only
 * where the host shows kinds as served, so a host that shows none, or shows
 * them its own way, is not judged on it (a pass that says so), never failed.
 */
export default defineHostCheck({
  findings: { ...F.table, ...delivered.table, ...kinds.table },
  anchor: "U2",
  title: "The host takes a frame of unknown kind or rel as opaque evidence",
  level: "MUST",
  requirement:
    "A host that receives an unrecognised kind MUST treat the frame as opaque evidence — it MAY decline to specialise its handling, but MUST NOT fail to deserialise, reject, or crash — and if it re-emits the frame it MUST preserve the original kind string verbatim. " +
    "New open vocabularies (rel, error code, egress_scope) grow without a version bump; a receiver MUST NOT reject an unknown value in any of them.",
  scenarios: [LOCK_STEP, UNKNOWN_VOCABULARY],
  score({ scenario }) {
    const base = scenario(LOCK_STEP);
    const v = scenario(UNKNOWN_VOCABULARY);
    if (!base.ran || !v.ran) return { skip: `U2 is judged against the baseline: ${base.ran ? "unknown-vocabulary" : "lock-step"} did not run` };
    const answers = v.answered("frames");
    const kindAt = answers.filter((a) => framesIn(a.env).some((f) => f.kind === UNKNOWN_KIND)).map((a) => a.n);
    const relAt = answers
      .filter((a) => framesIn(a.env).some((f) => Array.isArray(f.relations) && f.relations.some((r) => isObj(r) && r.rel === UNKNOWN_REL)))
      .map((a) => a.n);
    if (kindAt.length === 0 && relAt.length === 0) {
      return {
        skip: `scenario unknown-vocabulary: no frames answer carrying the unknown kind or rel reached the host (it sent ${v.sent("query").length} queries and ${describeEnding(v.ending())}), so U2 could not be observed`,
      };
    }
    const at: Served = { kind_at: kindAt, rel_at: relAt };
    const end = v.ending();
    const servedLines = [...new Set([...kindAt, ...relAt])];
    const out: Evidence[] = [];
    if (end.kind === "signal") {
      out.push(F.say("crashed", { ...at, ending: endingParam(end) }, { lines: [...servedLines, end.n] }));
      return out;
    }
    const alike = endingClass(base.ending()) === endingClass(end);
    const e = F.say(
      alike ? "ending-alike" : "ending-differs",
      { ...endingsParams(base, v, "an unknown kind and rel"), ...at },
      {
        lines: [...servedLines, base.ending().n, end.n],
      },
    );
    out.push(e);
    const answer = answers.find((a) => servedLines.includes(a.n))!;
    const unknown = (f: Obj): boolean => f.kind === UNKNOWN_KIND || (Array.isArray(f.relations) && f.relations.some((r) => isObj(r) && r.rel === UNKNOWN_REL));
    const d = { difference: "an unknown kind and rel", touched: (f: ServedFrame) => unknown(f.frame), touchedWords: "of an unknown kind or rel", answer };
    // An ending unlike lock-step's is the finding: what the host then did not compose or send is the same cause.
    if (e.ok) {
      const same = sameDelivery(base, v, d);
      out.push(...same, ...carriedOn(base, v, d, same), ...kindsKept(v, UNKNOWN_KIND));
    }
    return out;
  },
});
