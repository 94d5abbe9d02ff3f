import { defineHostCheck } from "../kit/host.ts";
import { judgeStored, reuse, reuseOrSkip, type FirstFrame } from "../kit/reuse.ts";
import { REUSE } from "../../src/protocol/host-scenarios.ts";

/** A digest-bearing frame a verify asked about and got no verdict for. */
const silent = (f: FirstFrame): boolean => f.digest !== undefined && f.requested && f.verdict === undefined && f.silentAt !== undefined;

/**
 * @anchor V2
 * Stimulus: scenario reuse. Its provider declares capabilities.verify, and
 * its sources change once it has answered its first query: its verified
 * answer to a verify of that answer's frames leaves fixture:unanswered out
 * (no verdict echoes its identity), and a later query serves that frame's new
 * content under a new marker and digest. Read as host:V4 reads it: the blocks
 * the host wrote to {context} in order, the first judged only as a later
 * one (host:V4); a first-answer marker in a later block is that frame's
 * stored copy unless an answer after the first served it again. The host half
 * of V2 is judged here: an identity that came back with no verdict is
 * unknown, and unknown permits no reuse (V3: "unknown MUST NOT be read as
 * validity"). Findings: a later block holding the stored copy of a frame the
 * host's verify asked about and got no verdict for fails where the block
 * shows it was composed after that verified answer (it holds a frame first
 * served after it), and warns where nothing in it shows so; one finding per
 * block. A frame given a verdict is host:V3's or host:V4's, a frame no verify
 * asked about host:V3's, a digest-less one host:D3's. A pass where no later
 * block holds such a copy. V2's first sentence binds the provider and is the
 * provider-side V2's. Skip where scenario reuse did not run, no block
 * there is a later one (see host:V4), its later blocks hold no frame served
 * there, it sent no verify, or every identity it asked about came back with a
 * verdict.
 */
export default defineHostCheck({
  findings: reuse.table,
  anchor: "V2",
  title: "The host takes an identity that came back with no verdict as unknown",
  level: "MUST",
  requirement:
    "A requested identity that comes back with no verdict MUST be treated by the host as unknown. (V3: unknown MUST NOT be read as validity. Reuse requires a positive answer, never the absence of a negative one.)",
  scenarios: [REUSE],
  needs: {
    writes: ["context"],
    work: "in reuse, a verify, then a query again, and a block composed after it: one block is enough where it holds a frame the later query first served",
  },
  score(input) {
    const r = reuseOrSkip(input);
    if (typeof r === "string") return { skip: r };
    if (r.verifies.length === 0) return { skip: "the host sent no verify in reuse: no identity could come back without a verdict" };
    const picked = r.frames.filter(silent);
    if (picked.length === 0) return { skip: "every identity the host asked about in reuse came back with a verdict: it asked nothing the provider left out" };
    return judgeStored(r, {
      picked,
      since: (f) => f.silentAt!,
      rule: "silence",
    });
  },
});
