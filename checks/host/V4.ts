import { defineHostCheck } from "../kit/host.ts";
import { judgeStored, reuse, reuseOrSkip, type FirstFrame } from "../kit/reuse.ts";
import { show } from "../kit/show.ts";
import { REUSE } from "../../src/protocol/host-scenarios.ts";

const condemned = (f: FirstFrame): boolean => f.verdict?.status === "stale" || f.verdict?.status === "gone";

/**
 * @anchor V4
 * Stimulus: scenario reuse. Its provider declares capabilities.verify, and
 * its sources change once it has answered its first query: a verify of that
 * answer's frames calls fixture:changed stale (with a replacement_digest) and
 * fixture:removed gone, and a later query serves fixture:changed's new
 * content under a new marker and digest, and fixture:removed not at all.
 * Read: the blocks the host wrote to {context}, in order, and the frames and
 * verdicts on the wire. A later block is every block after the first, and
 * the first too where it holds a frame first served by an answer after the
 * first: one block is enough where it proves the order of events (a host
 * that composes once, at the end, after its verify and a query again, is
 * judged on that block, whether it is its first or its fifth). A first
 * block holding only what the first answer served may have been composed
 * before any verdict could be had, and is not judged. A frame
 * is in a block where its marker is, so a first-answer marker in a later
 * block is the stored copy of that frame, unless an answer after the first
 * served that marker again (a fresh fetch of the same bytes; this provider
 * does so only to a host that starts it afresh). Findings: a later block
 * holding the stored copy of a frame verify called stale or gone fails, one
 * finding per block, where the block shows it was composed after the
 * verified answer: it holds a frame first served after that answer (the
 * query again). Where it holds nothing that late, it warns instead: the
 * blocks are read once the host has ended, so nothing else shows when one
 * was composed. A pass where no later block holds such a copy. Skip where
 * scenario reuse did not run, no block there is a later one (the skip says
 * so: query again after the verify before composing, or compose again),
 * its later blocks hold no frame served there, it sent no verify, or no
 * verdict of stale or gone came back (it asked about neither frame).
 */
export default defineHostCheck({
  findings: reuse.table,
  anchor: "V4",
  title: "The host serves no stored copy of a frame verify called stale or gone",
  level: "MUST",
  requirement:
    "A stale verdict MAY carry a replacement_digest — the provider's current digest for the frame, a digest never a body. A host MUST NOT keep serving its stored copy of a stale or gone frame.",
  scenarios: [REUSE],
  needs: {
    writes: ["context"],
    work: "in reuse, a verify, then a query again, and a block composed after it: one block is enough where it holds a frame the later query first served",
  },
  score(input) {
    const r = reuseOrSkip(input);
    if (typeof r === "string") return { skip: r };
    if (r.verifies.length === 0) return { skip: "the host sent no verify in reuse: no verdict of stale or gone was there to act on" };
    const picked = r.frames.filter(condemned);
    if (picked.length === 0)
      return {
        skip: `no verify the host sent in reuse got a verdict of stale or gone: it asked about neither ${show("fixture:changed")} nor ${show("fixture:removed")}`,
      };
    return judgeStored(r, {
      picked,
      since: (f) => f.verdict!.n,
      rule: "condemned",
    });
  },
});
