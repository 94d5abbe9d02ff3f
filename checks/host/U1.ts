import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { carriedOn, delivered, sameDelivery } from "../kit/delivered.ts";
import { findings, type Table } from "../kit/findings.ts";
import { differentials, sameEnding } from "../kit/host-evidence.ts";
import { LOCK_STEP, UNKNOWN_MEMBERS } from "../../src/protocol/host-scenarios.ts";

const F = findings({
  "no-query-after-ack": {
    says: (p: { ack: number; lock_step_query: number }) =>
      `scenario unknown-members: after a handshake_ack (line ${p.ack}) that differs from lock-step's only by unknown members, the host sent no query, though in lock-step it did (line ${p.lock_step_query}): did it reject the ack for its unknown members? Ignore members you do not recognise`,
    expected: () => "a query, as in lock-step",
    actual: () => "no query after the ack",
  },
  queried: {
    ok: true,
    says: (p: { ack: number; query: number; lock_step_query: number }) =>
      `scenario unknown-members: the host queried (line ${p.query}) after a handshake_ack full of unknown members (line ${p.ack}), as it did in lock-step (line ${p.lock_step_query})`,
  },
});

/**
 * The findings U1 makes: its own, the endings compared (the retries beside them are X1's and X2's), and what the
 * host delivered (no frame of unknown-members carries the difference alone, so none is left out as opaque).
 */
const TABLE: Table = {
  ...F.table,
  "ending-alike": differentials.table["ending-alike"],
  "ending-differs": differentials.table["ending-differs"],
  ...Object.fromEntries(Object.entries(delivered.table).filter(([code]) => code !== "opaque-dropped")),
};

/**
 * @anchor U1
 * Stimulus: scenarios unknown-members and lock-step (the baseline). They are
 * identical but for one thing: in unknown-members every object the scenario
 * provider sends (the ack, its provider and capabilities, each frame, each
 * nested object) carries a member no revision defines. Scored as a
 * differential against the host's own baseline, so a host is compared with
 * itself, never with an expectation of how it should end.
 * Findings: the host sent a query in lock-step but none after the
 * unknown-members ack (it rejected the ack for its unknown members) fails;
 * an ending unlike lock-step's fails (kind and exit status compared: exit 0
 * there and exit 1, a crash or a hang here). Reading: a lock-step that itself
 * did not end cleanly is still the baseline: a host that exits nonzero in
 * both for its own reasons is consistent, and passes. Where the provider
 * sent no ack (it refused the host's handshake), no unknown member reached
 * the host: skip.
 * Where the endings are alike (else the ending is the one finding of the
 * cause), what it delivered, where it writes {context} (CGP_CONTEXT_PATH): every
 * frame of both scenarios carries a marker of its own in its content, the
 * same document the same marker in each. Block by block, the i-th block
 * holding a served frame in unknown-members against lock-step's i-th:
 * holding none of the frames lock-step's holds, or no such block at all,
 * fails (the host rejected the answer for its unknown members, though it
 * ended as in lock-step); holding some of them warns. Where the host writes
 * blocks but lock-step's hold no served frame (they hold no frame content),
 * one finding at info level says that what it delivered cannot be compared
 * (reading, as for U2: nothing of the rejection can be seen there, and no
 * keyword asks for frame content in a block); where it writes no block at
 * all, that comparison says nothing. Carrying on: where in lock-step the
 * host sent another query after its first answer, none after the first
 * unknown-members answer warns; a host that sends one query shows nothing
 * there. Reading, as for U2: carrying on is judged by what the host
 * received and used (a block after its first holding frames of its next
 * answer, where lock-step has one), never by the provider having answered;
 * without such blocks only that it sent the next query is said.
 */
export default defineHostCheck({
  findings: TABLE,
  anchor: "U1",
  title: "The host ignores members it does not recognise",
  level: "MUST",
  requirement:
    "A receiver MUST ignore an object member it does not recognise, in any envelope, capability set, frame, or nested object — it MUST NOT reject the message on that basis.",
  scenarios: [LOCK_STEP, UNKNOWN_MEMBERS],
  score({ scenario }) {
    const base = scenario(LOCK_STEP);
    const v = scenario(UNKNOWN_MEMBERS);
    if (!base.ran || !v.ran) return { skip: `U1 is judged against the baseline: ${base.ran ? "unknown-members" : "lock-step"} did not run` };
    const ack = v.ack();
    // No ack: the provider refused the host's handshake (host:S3-version or host:S2-envelope says why), and no unknown member reached it.
    if (!ack)
      return {
        skip: "scenario unknown-members: the scenario provider sent no handshake_ack (it refused the host's handshake), so no unknown member reached the host",
      };
    const out: Evidence[] = [];
    const baseQuery = base.sent("query")[0];
    const after = v.sent("query").filter((q) => q.n > ack.n);
    if (baseQuery && after.length === 0) {
      out.push(F.say("no-query-after-ack", { ack: ack.n, lock_step_query: baseQuery.n }, { lines: [ack.n, baseQuery.n] }));
    } else if (baseQuery) {
      out.push(F.say("queried", { ack: ack.n, query: after[0]!.n, lock_step_query: baseQuery.n }, { lines: [ack.n, after[0]!.n, baseQuery.n] }));
    }
    const ending = sameEnding(base, v, "unknown members in every object the provider sends");
    out.push(ending);
    const answer = v.answered("frames").find((a) => a.n > ack.n);
    // An ending unlike lock-step's is the finding: what the host then did not compose or send is the same cause.
    if (answer && ending.ok) {
      const d = { difference: "unknown members in every object", answer };
      const same = sameDelivery(base, v, d);
      out.push(...same, ...carriedOn(base, v, d, same));
    }
    return out;
  },
});
