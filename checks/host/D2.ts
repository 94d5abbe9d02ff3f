import type { Evidence } from "../kit/check.ts";
import { defineHostCheck } from "../kit/host.ts";
import { lineWords } from "../kit/host-evidence.ts";
import { findings } from "../kit/findings.ts";
import { blockParam, blockSaid, heldParam, heldSaid, heldWords, reuseOrSkip, type Block, type Held } from "../kit/reuse.ts";
import { REUSE } from "../../src/protocol/host-scenarios.ts";

/** How many times a text holds a marker. */
const occurrences = (text: string, marker: string): number => text.split(marker).length - 1;

/** A frame served twice under one identity, in a block: at which lines it was served. */
type Twice = { block: Block; frame: Held; served: number[] };
const times = (n: number): string => (n === 1 ? "once" : `${n} times`);

const F = findings({
  "rendered-twice": {
    says: (p: Twice & { times: number; least: number }) =>
      `scenario reuse, ${blockSaid(p.block)}: it renders ${heldSaid(p.frame)} ${p.times} times, and the frame it renders least ${times(p.least)}; it was served at ${lineWords(p.served)} under one identity, which is one content: render it once`,
    expected: (p: Twice & { least: number }) => `${p.frame.marker} rendered ${times(p.least)}, as the block's other frames`,
    actual: (p: { times: number }) => `${p.times} times`,
  },
  "rendered-once": {
    ok: true,
    says: (p: Twice) =>
      `scenario reuse, ${blockSaid(p.block)}: it renders ${heldSaid(p.frame)}, served at ${lineWords(p.served)} under one identity, as one content`,
  },
});

/**
 * @anchor D2
 * Stimulus: scenario reuse. Its provider serves fixture:kept, with a
 * content_digest, in its first answer and again, the same identity and
 * bytes, in every later one; a verify calls it valid. Read: the later blocks
 * the host wrote to {context} (as host:V4 reads them), and the frames served on the
 * wire, each found in a block by its marker. Reading: D2's MUST says what
 * sameness is (one identity is one content) and licenses what follows from
 * it: "a host MAY dedup or reuse across queries on that basis". Neither
 * reusing the stored copy nor taking the fresh one is a fault, and nothing a
 * run can see of a host breaks the MUST by itself: a block rendering one
 * identity's content twice does not treat the two as different contents, it
 * leaves them undeduplicated, which context-reuse §1 asks against with a
 * SHOULD ("SHOULD de-duplicate identical identities to a single rendered
 * block"). So this check can only warn. Findings: a later block holding the
 * marker of an identity served in two answers at least twice as often as the
 * marker it holds least often (a host rendering every frame's content twice
 * renders each so) warns, as the SHOULD, one finding per block; once, a
 * pass. D2 is read of identities carrying a content_digest: a digest-less
 * frame makes no promise of its bytes (D3). Skip where scenario reuse did
 * not run, no block there is a later one (see host:V4), its later blocks
 * hold no frame served there, it fetched no frame twice under one identity
 * (it sent no query again), or no later block holds such a frame (dropping
 * it is the host's choice).
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "D2",
  title: "The host renders one identity served twice as one content",
  level: "SHOULD",
  requirement:
    "Two frames with the same (provider id, frame id, content_digest) MUST be treated as the same content; a host MAY dedup or reuse across queries on that basis. " +
    "A host that composes a set of frames into a single context block: […] SHOULD de-duplicate identical identities to a single rendered block (context-reuse §1).",
  scenarios: [REUSE],
  needs: {
    writes: ["context"],
    work: "in reuse, a query again after the verify, and a block composed after it: one block is enough where it holds a frame the later query first served",
  },
  score(input) {
    const r = reuseOrSkip(input);
    if (typeof r === "string") return { skip: r };
    const twice = r.frames.filter((f) => f.digest !== undefined && f.again.length > 0);
    if (twice.length === 0) return { skip: "the host fetched no frame of reuse twice under one identity: it queried once, or got nothing it already held" };
    const out: Evidence[] = [];
    for (const b of r.later) {
      const base = Math.min(...b.markers.map((m) => occurrences(b.text, m)));
      for (const f of twice.filter((f) => b.text.includes(f.marker))) {
        const times = occurrences(b.text, f.marker);
        const at: Twice = { block: blockParam(b), frame: heldParam(f), served: [r.first.n, ...f.again] };
        const lines = [r.first.n, ...f.again, b.n];
        out.push(times >= 2 * base ? F.say("rendered-twice", { ...at, times, least: base }, { lines }) : F.say("rendered-once", at, { lines }));
      }
    }
    if (out.length === 0)
      return { skip: `no later block in reuse holds ${twice.map(heldWords).join(", ")}, which the host fetched twice: it may drop what it may reuse` };
    return out;
  },
});
