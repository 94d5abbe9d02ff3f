import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { blockParam, blockSaid, heldParam, heldSaid, judgeStored, reuse, reuseOrSkip, type Block, type FirstFrame, type Held } from "../kit/reuse.ts";
import { PLACEHOLDERS, REUSE } from "../../src/protocol/host-scenarios.ts";

/** The verdicts V4 judges; every other one (unknown, or a status no revision defines) is no validity. */
const NEGATIVE = ["stale", "gone"];

/** A digest-bearing frame whose verdict came back and says neither valid nor stale nor gone: unknown, or read as unknown. */
const notValid = (f: FirstFrame): boolean =>
  f.digest !== undefined && f.verdict !== undefined && f.verdict.status !== "valid" && !NEGATIVE.includes(String(f.verdict.status));

const F = findings({
  "reused-unverified": {
    cites: "a host that reuses a frame's body across queries SHOULD confirm the identity still holds via verify",
    level: "SHOULD",
    says: (p: { block: Block; frames: Held[] }) =>
      `scenario reuse, ${blockSaid(p.block)}: it holds the stored copy of ${count(p.frames.length, "frame")} no verify asked about: ${p.frames.map(heldSaid).join(", ")}; a host that reuses a frame's body across queries should confirm it is still valid first (D4), and reuse requires a positive answer`,
    expected: () => "every reused body verified valid first",
    actual: (p: { frames: Held[] }) => `${p.frames.map((h) => h.marker).join(", ")} reused unverified`,
  },
  "reused-valid": {
    ok: true,
    says: (p: { frames: Held[]; blocks: number[] }) =>
      `scenario reuse: ${p.frames.map(heldSaid).join(", ")}, which verify called valid (${lineWords(p.frames.map((h) => h.verdict_at!))}), ${p.frames.length === 1 ? "is" : "are"} in a block composed after the first answer (${PLACEHOLDERS.context} ${lineWords(p.blocks)}): reuse on valid, as the rule allows`,
  },
});

/**
 * @anchor V3
 * Stimulus: scenario reuse. Its provider declares capabilities.verify, and
 * its sources change once it has answered its first query: a verify of that
 * answer's frames calls fixture:kept valid and fixture:unsure unknown, and a
 * later query serves fixture:kept as it was and fixture:unsure's new content
 * under a new marker and digest. Read as host:V4 reads it: the blocks the host
 * wrote to {context} in order, the first judged only as a later one
 * (host:V4); a first-answer marker in a later block is that frame's stored copy
 * unless an answer after the first served it again. Findings: a later block
 * holding the stored copy of a frame whose verdict came back as anything but
 * valid, stale or gone (unknown, or a status no revision defines, which is
 * no validity either) fails where the block shows it was composed after that
 * verdict (it holds a frame first served after it), and warns where nothing
 * in it shows so; one finding per block. A stale or gone verdict is
 * host:V4's, an identity that came back with no verdict host:V2's, and a
 * frame with no content_digest host:D3's: each defect is one finding. Reusing
 * the stored copy of a frame called valid is what the rule allows (a MAY,
 * never a warning). Reading: "only on valid" binds the frames the host asked
 * about; a digest-bearing frame it never asked about and still reused is
 * D4's concern ("a host that reuses a frame's body across queries SHOULD
 * confirm the identity still holds via verify"), so that warns as the SHOULD.
 * Skip where scenario reuse did not run, no block there is a later
 * one (see host:V4), its later blocks hold no frame served there, or it sent no
 * verify.
 */
export default defineHostCheck({
  findings: { ...F.table, ...reuse.table },
  anchor: "V3",
  title: "The host reuses a held frame body only on a valid verdict",
  level: "MUST",
  requirement:
    "A verdict is one of valid, stale, gone, unknown. A host MUST reuse a held frame body only on valid; unknown MUST NOT be read as validity. Reuse requires a positive answer, never the absence of a negative one.",
  scenarios: [REUSE],
  needs: {
    writes: ["context"],
    work: "in reuse, a verify, then a query again, and a block composed after it: one block is enough where it holds a frame the later query first served",
  },
  score(input) {
    const r = reuseOrSkip(input);
    if (typeof r === "string") return { skip: r };
    if (r.verifies.length === 0) return { skip: "the host sent no verify in reuse: it had no verdict to reuse a frame on" };
    const out: Evidence[] = [];
    const picked = r.frames.filter(notValid);
    if (picked.length > 0)
      out.push(
        ...judgeStored(r, {
          picked,
          since: (f) => f.verdict!.n,
          rule: "not-valid",
        }),
      );
    for (const b of r.later) {
      const unasked = b.stored.filter((f) => f.digest !== undefined && !f.requested);
      if (unasked.length > 0)
        out.push(
          F.say("reused-unverified", { block: blockParam(b), frames: unasked.map(heldParam) }, { lines: [b.n, r.first.n, ...r.verifies.map((e) => e.n)] }),
        );
    }
    const valid = r.frames.filter((f) => f.verdict?.status === "valid");
    const kept = valid.filter((f) => r.later.some((b) => b.text.includes(f.marker)));
    if (kept.length > 0)
      out.push(
        F.say(
          "reused-valid",
          { frames: kept.map(heldParam), blocks: r.later.filter((b) => kept.some((f) => b.text.includes(f.marker))).map((b) => b.n) },
          { lines: [...kept.map((f) => f.verdict!.n), ...r.later.map((b) => b.n)] },
        ),
      );
    if (out.length === 0)
      return { skip: "no verdict the host got in reuse was valid or unknown, and no later block holds a frame it never asked about: nothing to judge" };
    return out;
  },
});
