import { defineHostCheck } from "../kit/host.ts";
import { judgeStored, reuse, reuseOrSkip, type FirstFrame } from "../kit/reuse.ts";
import { REUSE } from "../../src/protocol/host-scenarios.ts";

/** A frame served without a content_digest, and not verified valid since. */
const unchecked = (f: FirstFrame): boolean => f.digest === undefined && f.verdict?.status !== "valid";

/**
 * @anchor D3
 * Stimulus: scenario reuse. Its provider serves fixture:undigested without a
 * content_digest in its first answer, and its new content under a new marker
 * (still without one) in every later answer. Read as host:V4 reads it: the
 * blocks the host wrote to {context} in order, the first judged only as a later one (host:V4); the
 * first answer's marker of that frame in a later block is its stored copy
 * unless an answer after the first served that marker again. Findings: a
 * later block holding that stored copy fails where the block shows it was
 * composed for a later query: it holds a frame first served by an answer
 * after the first, so the copy was reused across queries. Where the block
 * holds only frames the first answer served, it warns: no later query shows
 * in it, and reuse within one query's compositions is not across queries.
 * One finding per block. Reading: "re-verifies it" is taken at its word, so a
 * verdict of valid that a provider gave the frame's digest-less identity
 * permits reuse (this provider answers such an identity unknown: "a
 * digest-less frame cannot be revalidated", V1); and a verify that only asked
 * is no check. A pass where no later block holds the stored copy. Skip where
 * scenario reuse did not run, no block there is a later one (see host:V4),
 * its later blocks hold no frame served there, or its first answer held no
 * digest-less frame (a query narrower than the host's usual one).
 */
export default defineHostCheck({
  findings: reuse.table,
  anchor: "D3",
  title: "The host never reuses a digest-less frame unchecked across queries",
  level: "MUST",
  requirement:
    "A frame whose content_digest is absent MUST NOT be reused unchecked across queries — a host re-queries or re-verifies it rather than trusting a stored copy.",
  scenarios: [REUSE],
  needs: {
    writes: ["context"],
    work: "in reuse, a block composed after a later query: one block is enough where it holds a frame the later query first served",
  },
  score(input) {
    const r = reuseOrSkip(input);
    if (typeof r === "string") return { skip: r };
    const picked = r.frames.filter(unchecked);
    if (picked.length === 0)
      return {
        skip: r.frames.some((f) => f.digest === undefined)
          ? "the digest-less frame of reuse was verified valid: re-verified, as D3 allows"
          : "the host's first answer in reuse held no frame without a content_digest",
      };
    return judgeStored(r, {
      picked,
      since: () => r.first.n,
      rule: "digestless",
    });
  },
});
