import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { carriedOn, delivered, sameDelivery } from "../kit/delivered.ts";
import { findings, type Table } from "../kit/findings.ts";
import { differentials, lineWords, sameEnding } from "../kit/host-evidence.ts";
import { LATER_MINOR, LOCK_STEP, UNKNOWN_ENVELOPE, UNKNOWN_ENVELOPE_TYPE } from "../../src/protocol/host-scenarios.ts";

const F = findings({
  reached: {
    ok: true,
    says: (p: { ack: number; query: number; notes: number[] }) =>
      `scenario unknown-envelope-type: the host queried (line ${p.query}) after a handshake_ack of ${LATER_MINOR} (line ${p.ack}), and was sent notifications of type ${UNKNOWN_ENVELOPE}, which 1.0 does not define, at ${lineWords(p.notes)}`,
  },
});

/** Its own finding, the endings compared, and what the host delivered (no frame carries the difference, so none is left out as opaque). */
const TABLE: Table = {
  ...F.table,
  "ending-alike": differentials.table["ending-alike"],
  "ending-differs": differentials.table["ending-differs"],
  ...Object.fromEntries(Object.entries(delivered.table).filter(([code]) => code !== "opaque-dropped")),
};

const DIFFERENCE = `a notification of type ${UNKNOWN_ENVELOPE} (a type 1.0 does not define) before and after each answer, from a provider acknowledging ${LATER_MINOR}`;

/**
 * @section 2 (no anchor number)
 * Stimulus: scenarios unknown-envelope-type and lock-step (the baseline),
 * identical but for this: in unknown-envelope-type the scenario provider's
 * handshake_ack acknowledges a later minor of the host's family
 * (contextgraph/1.7), and around each frames answer it writes a
 * notification (an envelope with no id) of type frames_invalidated, which
 * 1.0 does not define, one before the answer and one after. Over stdio
 * only: over HTTP a provider has no way to send an envelope unasked.
 * Precondition: the host queried after that ack, and a notification was
 * written after its query (else nothing unknown reached it: skip; a host
 * that sends no query after an ack of a later minor of its family is
 * another rule's concern, §3.1's SHOULD compare families).
 * Findings, a differential against the host's own baseline as for host:U1:
 * an ending unlike lock-step's (kind and exit status) fails, as a host that
 * rejected the exchange or dropped the provider would end. Where the
 * endings are alike (else the ending is the one finding of the cause), what
 * it delivered, where it writes {context}: both scenarios serve the same
 * marked frames, so the i-th block holding a served frame is compared with
 * lock-step's i-th, as for host:U1: holding none of the frames lock-step's
 * holds, or no such block at all, fails (the host dropped the answer the
 * notification came with); holding some of them warns. Where lock-step's
 * blocks hold no frame content, one finding at info level says what it
 * delivered cannot be compared; where it writes no block at all, only the
 * ending is judged. Carrying on after the answer is judged as for host:U1.
 * Reading: the sentence's "ignores an unrecognised notification" is a
 * provider's reply rule read for any receiver; a host that logs the
 * notification, or takes it as a hint of its own, ignores it as far as the
 * exchange goes, so only rejecting the exchange or dropping the provider
 * (an ending or a delivery unlike lock-step's) is held against it.
 */
export default defineHostCheck({
  findings: TABLE,
  anchor: "S2-unknown-type",
  title: "The host ignores an envelope of a type it does not implement",
  level: "MUST",
  requirement:
    "a receiver MUST NOT reject an envelope solely because its type is one it does not implement — it replies error with code bad_request for a payload-bearing request it cannot serve, and ignores an unrecognised notification.",
  scenarios: [LOCK_STEP, UNKNOWN_ENVELOPE_TYPE],
  follows: "host:S2-envelope",
  score({ scenario }) {
    const base = scenario(LOCK_STEP);
    const v = scenario(UNKNOWN_ENVELOPE_TYPE);
    if (!v.ran) return { skip: "scenario unknown-envelope-type did not run (it runs over stdio only: over HTTP a provider cannot send an envelope unasked)" };
    if (!base.ran) return { skip: "the unknown type is judged against the baseline: lock-step did not run" };
    const ack = v.ack();
    if (!ack)
      return {
        skip: "scenario unknown-envelope-type: the scenario provider sent no handshake_ack (it refused the host's handshake), so nothing unknown reached the host",
      };
    const query = v.sent("query").find((q) => q.n > ack.n);
    if (!query)
      return {
        skip: `scenario unknown-envelope-type: the host sent no query after the handshake_ack of ${LATER_MINOR} (line ${ack.n}), so no notification reached it (a later minor of the host's family interoperates, §3.1)`,
      };
    const notes = v.answered(UNKNOWN_ENVELOPE).filter((e) => e.n > query.n);
    if (notes.length === 0)
      return {
        skip: `scenario unknown-envelope-type: the scenario provider wrote no ${UNKNOWN_ENVELOPE} notification after the host's query (line ${query.n})`,
      };
    const out: Evidence[] = [F.say("reached", { ack: ack.n, query: query.n, notes: notes.map((e) => e.n) }, { lines: [ack.n, query.n] })];
    const ending = sameEnding(base, v, DIFFERENCE);
    out.push(ending);
    // An ending unlike lock-step's is the finding: what the host then did not compose or send is the same cause.
    if (ending.ok) {
      const d = { difference: DIFFERENCE, answer: notes[0]! };
      const same = sameDelivery(base, v, d);
      out.push(...same, ...carriedOn(base, v, d, same));
    }
    return out;
  },
});
